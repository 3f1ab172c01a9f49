package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.SplText;
import java.util.List;
import java.util.Optional;

/**
 * {@code | mcatalog values(<field>) [AS <name>]… [where <search>] [by <field>…]}: the metric names
 * and dimension values that metric indexes hold (from their series dictionaries, reading no point),
 * each {@code values(...)} a sorted multivalue column.
 *
 * @param values the fields listed ({@code metric_name}, a dimension, {@code index})
 * @param names their output names ({@code values(host)} unless given with {@code AS})
 */
public record McatalogCommand(
    List<String> values,
    List<String> names,
    Optional<SearchExpression> where,
    List<String> groupBy,
    Position position)
    implements MetricCommand {
  public McatalogCommand {
    values = List.copyOf(values);
    names = List.copyOf(names);
    if (values.isEmpty() || values.size() != names.size()) {
      throw new IllegalArgumentException("mcatalog needs values(<field>) with a name each");
    }
    requireNonNull(where, "where is null");
    groupBy = List.copyOf(groupBy);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "mcatalog";
  }

  @Override
  public String spl() {
    StringBuilder text = new StringBuilder("mcatalog");
    for (int i = 0; i < values.size(); i++) {
      String written = "values(" + values.get(i) + ")";
      text.append(' ').append(written);
      if (!names.get(i).equals(written)) {
        text.append(" AS ").append(names.get(i));
      }
    }
    where.ifPresent(w -> text.append(" where ").append(SplText.search(w)));
    if (!groupBy.isEmpty()) {
      text.append(" by ").append(String.join(", ", groupBy));
    }
    return text.toString();
  }
}
