package io.quarry.ql.builtins;

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
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.command.PerUseKind;
import io.quarry.ql.exec.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code addtotals [row=<bool>] [col=<bool>] [labelfield=<field>] [label=<string>]
 * [fieldname=<field>] [<field>...]}: with {@code row} (the default) each row gets the sum of its
 * numeric fields (the listed ones, wildcards allowed; else every field not starting with {@code _})
 * in {@code fieldname}; with {@code col} a last row holds each such field's sum over all rows, and
 * {@code label} in {@code labelfield}. Sums are exact decimals.
 */
final class AddTotalsCommand implements CommandDefinition {

  @Override
  public String name() {
    return "addtotals";
  }

  @Override
  public String description() {
    return "Adds each row's sum of its numeric fields (row=true) and a last row of column sums"
        + " (col=true).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("row", ArgumentType.BOOLEAN, "true", "add a total field to each row"),
        ArgumentSpec.optional(
            "col", ArgumentType.BOOLEAN, "false", "add a last row of column sums"),
        ArgumentSpec.optional(
            "labelfield", ArgumentType.FIELD, null, "the field of the column-sum row's label"),
        ArgumentSpec.optional("label", ArgumentType.STRING, "Total", "the column-sum row's label"),
        ArgumentSpec.optional(
            "fieldname", ArgumentType.FIELD, "Total", "the field of each row's total"),
        ArgumentSpec.optional(
            "fields",
            ArgumentType.FIELD_LIST,
            null,
            "the fields to sum, wildcards allowed (default: every field not starting with _)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    boolean row = arguments.getBoolean("row");
    boolean col = arguments.getBoolean("col");
    if (!row && !col) {
      throw new IllegalArgumentException("row=false and col=false leave nothing to add");
    }
    return new Bound(
        row,
        col,
        arguments.has("labelfield") ? arguments.getString("labelfield") : null,
        arguments.getString("label"),
        arguments.getString("fieldname"),
        arguments.fields());
  }

  record Bound(
      boolean row,
      boolean col,
      String labelField,
      String label,
      String fieldName,
      List<String> fields)
      implements BoundCommand, PerUseKind {
    @Override
    public CommandKind kind() {
      return col ? CommandKind.CENTRALIZED : CommandKind.STREAMING;
    }

    @Override
    public Set<String> requiredFields() {
      if (fields.isEmpty() || fields.stream().anyMatch(f -> Fields.stars(f) > 0)) {
        return ALL_FIELDS;
      }
      Set<String> required = new LinkedHashSet<>(fields);
      required.add(fieldName);
      if (labelField != null) {
        required.add(labelField);
      }
      return required;
    }

    @Override
    public Set<String> producedFields() {
      Set<String> produced = new LinkedHashSet<>();
      if (row) {
        produced.add(fieldName);
      }
      if (labelField != null) {
        produced.add(labelField);
      }
      return produced;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new Totals(context.blockFactory(), this);
    }

    /** The page's fields to sum. */
    List<String> summed(Page page) {
      List<String> names = Cells.fieldNames(page);
      Set<String> chosen = new LinkedHashSet<>();
      if (fields.isEmpty()) {
        for (String name : names) {
          if (!name.startsWith("_")) {
            chosen.add(name);
          }
        }
      } else {
        for (String pattern : fields) {
          chosen.addAll(Fields.matching(pattern, names));
        }
      }
      chosen.remove(fieldName);
      if (labelField != null) {
        chosen.remove(labelField);
      }
      return new ArrayList<>(chosen);
    }
  }

  /** The exact sum of a position's numeric values, or null when none is a number. */
  static BigDecimal sum(Block block, int p, BigDecimal into) {
    BigDecimal total = into;
    for (Object value : Cells.values(block, p)) {
      double number = Values.toNumber(value);
      if (Double.isFinite(number)) {
        BigDecimal exact =
            value instanceof String text
                ? new BigDecimal(text.strip())
                : new BigDecimal(Values.toText(value));
        total = total == null ? exact : total.add(exact);
      }
    }
    return total;
  }

  /** A sum as a value: a Long when whole, else a Double. */
  static Object value(BigDecimal sum) {
    BigDecimal stripped = sum.stripTrailingZeros();
    if (stripped.scale() <= 0
        && stripped.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
      return stripped.longValueExact();
    }
    return sum.doubleValue();
  }

  private static final class Totals extends QueueOperator {
    private final Bound bound;
    private final Map<String, BigDecimal> columnSums = new LinkedHashMap<>();
    private final Set<String> seen = new LinkedHashSet<>();

    Totals(BlockFactory factory, Bound bound) {
      super(factory, "addtotals");
      this.bound = bound;
    }

    @Override
    protected void process(Page page) {
      List<String> summed = bound.summed(page);
      List<String> columns = new ArrayList<>(summed);
      if (bound.row()) {
        columns.add(bound.fieldName());
      }
      if (bound.col()) { // reserved before the page changes: a throw leaves it whole
        for (String field : columns) {
          if (seen.add(field)) {
            reserve(64L + 2L * field.length());
          }
        }
      }
      Page out = page;
      if (bound.row()) {
        Cells.Column totals = new Cells.Column();
        for (int p = 0; p < page.positionCount(); p++) {
          BigDecimal total = null;
          for (String field : summed) {
            total = sum(page.block(field), p, total);
          }
          totals.add(total == null ? null : value(total));
        }
        out = factory.withColumn(page, bound.fieldName(), totals.build(factory, bound.fieldName()));
      }
      if (bound.col()) {
        for (String field : columns) {
          Block block = out.block(field);
          for (int p = 0; p < out.positionCount(); p++) {
            BigDecimal sum = sum(block, p, null);
            if (sum != null) {
              columnSums.merge(field, sum, BigDecimal::add);
            }
          }
        }
      }
      emit(out);
    }

    @Override
    protected void onFinish() {
      if (!bound.col()) {
        return;
      }
      List<String> names = new ArrayList<>();
      List<Cells.Column> sums = new ArrayList<>();
      for (String field : seen) {
        BigDecimal sum = columnSums.get(field);
        if (sum != null) {
          names.add(field);
          sums.add(Cells.Column.of(value(sum)));
        }
      }
      if (bound.labelField() != null) {
        names.add(bound.labelField());
        sums.add(Cells.Column.of(bound.label()));
      }
      if (!names.isEmpty()) {
        emit(Cells.page(names, Cells.build(factory, names, sums), 1));
      }
      columnSums.clear();
      releaseReserved();
    }
  }
}
