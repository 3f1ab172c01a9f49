package com.example.quarry;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A transforming command with a map and a reduce side: {@code valuecount field=<f>} counts the rows
 * per value of a field, most frequent first. Each driver's map operator counts its own rows and
 * emits (value, count) state pages; the reduce operator adds them up.
 */
public final class ValueCountCommand implements CommandDefinition {
  static final Schema STATE =
      new Schema(
          List.of(
              new Schema.Column("value", DataType.STRING),
              new Schema.Column("count", DataType.LONG)));

  /** Rough heap cost of one counted value, reserved against the search's memory limit. */
  static final long ENTRY_BYTES = 96;

  @Override
  public String name() {
    return "valuecount";
  }

  @Override
  public String description() {
    return "Counts rows per value of a field, most frequent first.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.TRANSFORMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(ArgumentSpec.required("field", ArgumentType.FIELD, "the field to count"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String field = arguments.getString("field");
    return new BoundCommand() {
      @Override
      public Set<String> requiredFields() {
        return Set.of(field);
      }

      @Override
      public Set<String> producedFields() {
        return Set.of(field, "count");
      }

      @Override
      public Operator createOperator(OperatorContext context) {
        return new Counting(context, field, false); // map side: rows in, state out
      }

      @Override
      public Operator createReduceOperator(OperatorContext context) {
        return new Counting(context, field, true); // reduce side: state in, answer out
      }
    };
  }

  /** Both sides: take pages, count, emit one page when finished. */
  private static final class Counting implements Operator {
    private final BlockFactory factory;
    private final String field;
    private final boolean reduce;
    private final Map<String, long[]> counts = new HashMap<>();
    private long reserved;
    private Page output;
    private boolean finished;

    Counting(OperatorContext context, String field, boolean reduce) {
      this.factory = context.blockFactory();
      this.field = field;
      this.reduce = reduce;
    }

    @Override
    public boolean needsInput() {
      return !finished;
    }

    @Override
    public void addInput(Page page) {
      Block values = page.block(reduce ? "value" : field);
      Block weights = reduce ? page.block("count") : null;
      for (int p = 0; values != null && p < page.positionCount(); p++) {
        Object value = values.getObject(p);
        if (value != null) {
          long weight = weights == null ? 1 : ((LongBlock) weights).getLong(p);
          long[] counter = counts.get(value.toString());
          if (counter == null) {
            factory.reserve(ENTRY_BYTES, "valuecount");
            reserved += ENTRY_BYTES;
            counts.put(value.toString(), new long[] {weight});
          } else {
            counter[0] += weight;
          }
        }
      }
      factory.release(page); // counted: nothing of the page is passed on
    }

    @Override
    public void finish() {
      if (finished) {
        return;
      }
      finished = true;
      List<Map.Entry<String, long[]>> entries = new ArrayList<>(counts.entrySet());
      if (reduce) {
        entries.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
      }
      BytesBlock.Builder values = factory.newBytesBlockBuilder(entries.size());
      LongBlock.Builder totals = factory.newLongBlockBuilder(entries.size());
      for (Map.Entry<String, long[]> entry : entries) {
        values.append(entry.getKey());
        totals.append(entry.getValue()[0]);
      }
      Schema schema =
          reduce
              ? new Schema(
                  List.of(
                      new Schema.Column(field, DataType.STRING),
                      new Schema.Column("count", DataType.LONG)))
              : STATE;
      output = new Page(schema, List.of(values.build(), totals.build()));
      close(); // the counts now live in the output page
    }

    @Override
    public boolean isFinished() {
      return finished && output == null;
    }

    @Override
    public Page getOutput() {
      Page page = output;
      output = null;
      return page;
    }

    @Override
    public void close() {
      counts.clear();
      factory.release(reserved);
      reserved = 0;
    }
  }
}
