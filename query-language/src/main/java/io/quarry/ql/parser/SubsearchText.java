package io.quarry.ql.parser;

import io.quarry.ql.ast.FormatCommand;
import io.quarry.ql.ast.ReturnCommand;
import io.quarry.ql.ast.SubsearchCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@link SplText} for {@code format}, {@code return} and the commands that take a subsearch. */
final class SubsearchText {
  private SubsearchText() {}

  static String format(FormatCommand format) {
    List<String> parts = new ArrayList<>(List.of("format"));
    if (!format.mvsep().equals(FormatCommand.DEFAULT_MVSEP)) {
      parts.add("mvsep=" + quote(format.mvsep()));
    }
    if (format.maxResults() != 0) {
      parts.add("maxresults=" + format.maxResults());
    }
    if (!format.delimiters().equals(FormatCommand.DEFAULT_DELIMITERS)) {
      format.delimiters().forEach(d -> parts.add(quote(d)));
    }
    if (!format.emptyStr().equals(FormatCommand.DEFAULT_EMPTY)) {
      parts.add("emptystr=" + quote(format.emptyStr()));
    }
    return String.join(" ", parts);
  }

  static String returns(ReturnCommand ret) {
    List<String> parts = new ArrayList<>(List.of("return"));
    if (ret.count() != 1) {
      parts.add(Long.toString(ret.count()));
    }
    for (ReturnCommand.Item item : ret.items()) {
      if (item.valueOnly()) {
        parts.add("$" + item.field());
      } else if (item.name().equals(item.field())) {
        parts.add(item.field());
      } else {
        parts.add(item.name() + "=" + item.field());
      }
    }
    return String.join(" ", parts);
  }

  static String command(SubsearchCommand sub) {
    List<String> parts = new ArrayList<>(List.of(sub.name()));
    if (sub.join() != null) {
      SubsearchCommand.Join join = sub.join();
      if (join.type() != SubsearchCommand.JoinType.INNER) {
        parts.add("type=" + join.type().name().toLowerCase(Locale.ROOT));
      }
      if (join.max() != 1) {
        parts.add("max=" + join.max());
      }
      if (!join.overwrite()) {
        parts.add("overwrite=false");
      }
    } else {
      if (sub.maxOut() != sub.kind().defaultMaxOut()) {
        parts.add("maxout=" + sub.maxOut());
      }
      if (sub.maxTimeSeconds() != SubsearchCommand.DEFAULT_MAX_TIME_SECONDS) {
        parts.add("maxtime=" + sub.maxTimeSeconds());
      }
      if (sub.override()) {
        parts.add("override=true");
      }
    }
    if (sub.join() != null && !sub.join().fields().isEmpty()) {
      parts.add(String.join(", ", sub.join().fields()));
    }
    parts.add("[" + sub.subsearch().text() + "]");
    return String.join(" ", parts);
  }

  private static String quote(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
