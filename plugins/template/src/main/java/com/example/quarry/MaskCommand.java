package com.example.quarry;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import java.util.List;
import java.util.Set;

/**
 * A streaming command: {@code mask field=<f> [keep=4]} replaces every character of the field but
 * the last {@code keep} with {@code *} ({@code 4111111111111111} → {@code ************1111}).
 */
public final class MaskCommand implements CommandDefinition {
  @Override
  public String name() {
    return "mask";
  }

  @Override
  public String description() {
    return "Masks a field, keeping only its last characters.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING; // row by row: runs in every driver, in parallel
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the field to mask"),
        ArgumentSpec.optional("keep", ArgumentType.LONG, "4", "characters left visible at the end"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    // arguments arrive parsed and typed; check what types cannot express
    long keep = arguments.getLong("keep");
    if (keep < 0) {
      throw new IllegalArgumentException("keep must not be negative");
    }
    String field = arguments.getString("field");
    return new BoundCommand() {
      @Override
      public Set<String> requiredFields() {
        return Set.of(field); // input pages carry this column
      }

      @Override
      public Set<String> producedFields() {
        return Set.of(field);
      }

      @Override
      public Operator createOperator(OperatorContext context) {
        return new PageTransformOperator() {
          @Override
          protected Page process(Page input) {
            Block values = input.block(field);
            if (values == null) {
              return input; // no row of this page has the field
            }
            BytesBlock.Builder masked =
                context.blockFactory().newBytesBlockBuilder(input.positionCount());
            for (int p = 0; p < input.positionCount(); p++) {
              Object value = values.getObject(p);
              if (value == null) {
                masked.appendNull();
              } else {
                String text = value.toString();
                int visible = (int) Math.min(keep, text.length());
                masked.append("*".repeat(text.length() - visible) + text.substring(text.length() - visible));
              }
            }
            // replaces the column, releasing the old block (the operator owned its input page)
            return context.blockFactory().withColumn(input, field, masked.build());
          }
        };
      }
    };
  }
}
