package io.quarry.ql.parser;

import io.quarry.ql.ast.PluginCommand;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Syntax trees compared by what they say, not where it was written: every {@link Position} and
 * every call's {@code offset} set to zero (a subsearch's offsets too, and its query's text without
 * the padding around it), by reflection over the records, so a tree parsed from {@link SplText}'s
 * text can be compared with the tree it was written from. A plugin command, whose bound command and
 * arguments have no equality, becomes its name, plugin, kind, option values and fields.
 */
final class Trees {
  private static final Position NOWHERE = new Position(0, 1, 1);

  private Trees() {}

  static Object withoutPositions(Object tree) {
    return switch (tree) {
      case null -> null;
      case Position ignored -> NOWHERE;
      case PluginCommand plugin ->
          List.of(
              plugin.name(),
              plugin.plugin(),
              plugin.kind(),
              plugin.arguments().values(),
              plugin.arguments().fields());
      // a subsearch's query text is the whole query padded around it, and its start and end are
      // offsets: where it was written, not what it says
      case io.quarry.ql.ast.Subsearch sub ->
          new io.quarry.ql.ast.Subsearch(
              (io.quarry.ql.ast.Query) withoutPositions(sub.query()), sub.text(), 0, 0, NOWHERE);
      case io.quarry.ql.ast.Query query ->
          new io.quarry.ql.ast.Query(
              query.text().strip(),
              query.commands().stream()
                  .map(c -> (io.quarry.ql.ast.Command) withoutPositions(c))
                  .toList());
      case List<?> list -> list.stream().map(Trees::withoutPositions).toList();
      case Optional<?> optional -> optional.map(Trees::withoutPositions);
      case Map<?, ?> map -> {
        Map<Object, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(k, withoutPositions(v)));
        yield copy;
      }
      case Record record -> rebuild(record);
      default -> tree;
    };
  }

  private static Record rebuild(Record record) {
    RecordComponent[] components = record.getClass().getRecordComponents();
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        Object value = components[i].getAccessor().invoke(record);
        values[i] =
            components[i].getName().equals("offset") && types[i] == int.class
                ? 0
                : withoutPositions(value);
      }
      var constructor = record.getClass().getDeclaredConstructor(types);
      constructor.setAccessible(true);
      return (Record) constructor.newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot rebuild " + record.getClass(), e);
    }
  }
}
