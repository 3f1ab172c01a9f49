package io.quarry.plugins.entropy;

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
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.Page;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code entropy <field>... [suffix=_entropy]}: for each field, {@code <field><suffix>} = the
 * Shannon entropy of its value in bits per character, {@code -Σ p(c) log2 p(c)} over the value's
 * characters (Unicode code points). Random-looking strings (DGA domains, base64 payloads) score
 * high: {@code google} 1.92, {@code x8f2kq9zr1vb} 3.58. Rows without the field get no value.
 */
public final class EntropyCommand implements CommandDefinition {
  @Override
  public String name() {
    return "entropy";
  }

  @Override
  public String description() {
    return "Shannon entropy (bits per character) of each given field's value, as <field>_entropy.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("fields", ArgumentType.FIELD_LIST, "the fields to measure"),
        ArgumentSpec.optional(
            "suffix", ArgumentType.STRING, "_entropy", "appended to each field's name"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String suffix = arguments.getString("suffix");
    if (suffix.isEmpty()) {
      throw new IllegalArgumentException("suffix must not be empty (it would replace the field)");
    }
    return new Bound(List.copyOf(new LinkedHashSet<>(arguments.fields())), suffix);
  }

  /** Bits per code point of {@code text}; 0 for an empty text. */
  static double entropy(String text) {
    int[] codePoints = text.codePoints().toArray();
    if (codePoints.length == 0) {
      return 0;
    }
    java.util.Arrays.sort(codePoints);
    double bits = 0;
    int run = 1;
    for (int i = 1; i <= codePoints.length; i++) {
      if (i < codePoints.length && codePoints[i] == codePoints[i - 1]) {
        run++;
      } else {
        double p = (double) run / codePoints.length;
        bits -= p * (Math.log(p) / Math.log(2));
        run = 1;
      }
    }
    return bits == 0 ? 0 : bits; // never -0.0
  }

  private record Bound(List<String> fields, String suffix) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.copyOf(fields);
    }

    @Override
    public Set<String> producedFields() {
      Set<String> produced = new LinkedHashSet<>();
      fields.forEach(f -> produced.add(f + suffix));
      return produced;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Page output = input;
          for (String field : fields) {
            Block values = input.block(field);
            if (values == null) {
              continue;
            }
            DoubleBlock.Builder scores =
                context.blockFactory().newDoubleBlockBuilder(input.positionCount());
            for (int p = 0; p < input.positionCount(); p++) {
              Object value = values.getObject(p);
              if (value == null) {
                scores.appendNull();
              } else {
                scores.append(entropy(value.toString()));
              }
            }
            output = context.blockFactory().withColumn(output, field + suffix, scores.build());
          }
          return output;
        }
      };
    }
  }
}
