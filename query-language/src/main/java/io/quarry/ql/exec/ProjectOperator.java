package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.ProjectCommand;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code table} and {@code fields}: each row is seen through the chosen columns. {@code table}
 * shows exactly the named fields in the given order (a literal name is a column even where a row
 * lacks it; a wildcard expands to the row's matching fields); {@code fields} keeps the named fields
 * and, as Splunk does, the internal {@code _time} and {@code _raw} unless they are removed by name
 * with {@code fields -}.
 */
public final class ProjectOperator implements RowSink {
  private static final List<String> INTERNAL = List.of("_time", "_raw");

  private final ProjectCommand command;
  private final List<Pattern> patterns;
  private final boolean hasWildcard;
  private final RowSink downstream;

  public ProjectOperator(ProjectCommand command, RowSink downstream) {
    this.command = requireNonNull(command, "command is null");
    this.patterns = command.patterns().stream().map(ProjectOperator::fieldPattern).toList();
    // a wildcard matches search-time fields too (an event's are found only when asked for)
    this.hasWildcard = command.patterns().stream().anyMatch(Wildcard::hasWildcard);
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  /** A field-name pattern: case-sensitive, as field names are; {@code *} matches any run. */
  static Pattern fieldPattern(String pattern) {
    return Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q"));
  }

  @Override
  public boolean accept(Row row) {
    List<String> names = names(hasWildcard ? row.discoverableFieldNames() : row.fieldNames());
    if (command.kind() == ProjectCommand.Kind.REMOVE) {
      // fields - f hides f only: a search-time field the row has not listed yet stays readable
      return downstream.accept(new Removed(row, names, patterns));
    }
    return downstream.accept(new Projected(row, names));
  }

  private List<String> names(List<String> available) {
    Set<String> names = new LinkedHashSet<>();
    switch (command.kind()) {
      case REMOVE -> {
        for (String name : available) {
          if (patterns.stream().noneMatch(p -> p.matcher(name).matches())) {
            names.add(name);
          }
        }
      }
      case TABLE, KEEP -> {
        for (int i = 0; i < patterns.size(); i++) {
          String pattern = command.patterns().get(i);
          if (!Wildcard.hasWildcard(pattern)) {
            names.add(pattern);
            continue;
          }
          for (String name : available) {
            if (patterns.get(i).matcher(name).matches()) {
              names.add(name);
            }
          }
        }
        if (command.kind() == ProjectCommand.Kind.KEEP) {
          for (String internal : INTERNAL) {
            if (available.contains(internal)) {
              names.add(internal);
            }
          }
        }
      }
    }
    return new ArrayList<>(names);
  }

  @Override
  public void finish() {
    downstream.finish();
  }

  /** A row without the fields {@code fields -} removed. */
  private record Removed(Row row, List<String> names, List<Pattern> removed) implements Row {
    @Override
    public List<Object> values(String field) {
      return removed.stream().anyMatch(p -> p.matcher(field).matches())
          ? List.of()
          : row.values(field);
    }

    @Override
    public List<String> fieldNames() {
      return names;
    }

    @Override
    public List<String> discoverableFieldNames() {
      return row.discoverableFieldNames().stream()
          .filter(name -> removed.stream().noneMatch(p -> p.matcher(name).matches()))
          .toList();
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      return names.contains("_raw") && row.matchesTerm(term);
    }
  }

  /** A row seen through a list of columns. */
  private record Projected(Row row, List<String> names) implements Row {
    @Override
    public List<Object> values(String field) {
      return names.contains(field) ? row.values(field) : List.of();
    }

    @Override
    public List<String> fieldNames() {
      return names;
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      return names.contains("_raw") && row.matchesTerm(term);
    }
  }
}
