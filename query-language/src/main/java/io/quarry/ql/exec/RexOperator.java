package io.quarry.ql.exec;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.RexCommand;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code rex} as a {@link PageChain} stage, anywhere in the chain: the input field's first value at
 * each position is matched ({@link RexExtraction}) and each named group's field becomes a column —
 * a matching position's extracted text, any other position its own value of that field (a field no
 * position matched is left as it is); in sed mode ({@link RexSed}) the field's column becomes each
 * value rewritten. A text column's ASCII values are matched over the block's bytes ({@link
 * AsciiChars}), and a one-group regex the one-pass matcher decides copies the group's bytes into
 * the new block — no {@code String} per position. A column that mixes extracted text with another
 * type's values is typed by {@link PageBuilder#column}'s rules (text).
 */
final class RexOperator extends PageTransformOperator {
  private final RexCommand command;
  private final RexExtraction extraction; // null in sed mode
  private final RexSed sed; // null in extraction mode
  private final List<String> fields; // the fields extraction may assign
  private final AsciiChars chars = new AsciiChars();
  private final ByteSlice slice = new ByteSlice();
  private final ByteSlice copied = new ByteSlice();
  private final java.util.function.UnaryOperator<String> marks; // a field's marker, or null

  RexOperator(RexCommand command, BooleanSupplier stopped) {
    this(command, stopped, null);
  }

  /**
   * As above; with {@code marks} not null, each page leaves with, for each field {@code f} the
   * command may set, a boolean column {@code marks.apply(f)}, true where it set {@code f} (found a
   * value for it; in sed mode, rewrote it), null elsewhere ({@code ListedFields}), as the matching
   * finds them.
   */
  RexOperator(
      RexCommand command, BooleanSupplier stopped, java.util.function.UnaryOperator<String> marks) {
    this.marks = marks;
    this.command = command;
    this.extraction = command.sed() == null ? new RexExtraction(command, stopped) : null;
    this.sed = command.sed() != null ? new RexSed(command, stopped) : null;
    this.fields = extraction == null ? List.of() : extraction.fields();
  }

  @Override
  protected Page process(Page page) {
    List<String> marked =
        marks == null ? List.of() : sed != null ? List.of(command.field()) : fields;
    // where each marked field is set, filled by the matching below (null: none asked for)
    boolean[][] set = marked.isEmpty() ? null : new boolean[marked.size()][page.positionCount()];
    Page result = extract(page, set);
    for (int f = 0; f < marked.size(); f++) {
      result = result.withColumn(marks.apply(marked.get(f)), ListingMarks.trues(set[f]));
    }
    return result;
  }

  /**
   * The page with the command's fields set; {@code set}, when not null, takes where each field (the
   * extraction's, in order; in sed mode the input field) was set.
   */
  private Page extract(Page page, boolean[][] set) {
    Block input = page.block(command.field());
    if (input == null) {
      return page; // no position has the field: every one passes unchanged
    } else if (sed != null) {
      return page.withColumn(command.field(), rewritten(page, input, set));
    } else if (fields.size() == 1
        && input instanceof BytesBlock text
        && (page.block(fields.get(0)) == null || page.block(fields.get(0)) instanceof BytesBlock)) {
      return extractedOne(page, text, fields.get(0), set);
    } else {
      return extracted(page, input, set);
    }
  }

  /**
   * The text {@code rex} matches at a position (its field's first value), an {@link AsciiChars}
   * view of the block's bytes where it can; null when the position has no value.
   */
  private CharSequence text(Page page, Block input, int position) {
    if (input.isNull(position)) {
      return null;
    }
    if (input instanceof BytesBlock bytes) {
      bytes.getBytes(bytes.getFirstValueIndex(position), slice);
      CharSequence ascii = chars.reset(slice);
      return ascii != null ? ascii : slice.toString();
    }
    List<Object> values = EvalValues.cell(page, command.field(), position);
    return values.isEmpty() ? null : EvalValues.text(values.get(0));
  }

  /**
   * One extracted field into a text column (absent or text before): a group's bytes copied from the
   * input where the one-pass matcher places them, else the matcher's answer; a position that does
   * not match keeps its value.
   */
  private Page extractedOne(Page page, BytesBlock input, String field, boolean[][] set) {
    BytesBlock existing = (BytesBlock) page.block(field);
    int positions = page.positionCount();
    BytesBlock.Builder builder = BytesBlock.builder(positions);
    boolean any = false;
    for (int p = 0; p < positions; p++) {
      CharSequence text = text(page, input, p);
      if (text == null) {
        keep(existing, p, builder);
        continue;
      }
      // a span is in characters: the bytes' own offsets only where each character is one byte
      AsciiChars ascii = text instanceof AsciiChars chars ? chars : null;
      long span =
          ascii != null
              ? extraction.span(ascii.array(), ascii.offset(), ascii.length())
              : RexExtraction.UNDECIDED_SPAN;
      if (span >= 0) {
        int start = (int) (span >>> 32);
        int end = (int) span;
        builder.append(ascii.array(), ascii.offset() + start, end - start);
        any = true;
        if (set != null) {
          set[0][p] = true;
        }
      } else if (span == RexExtraction.NO_SPAN) {
        keep(existing, p, builder);
      } else {
        Object value = extraction.assignments(text).get(field);
        if (value == null) {
          keep(existing, p, builder);
        } else {
          append(builder, value);
          any = true;
          if (set != null) {
            set[0][p] = true;
          }
        }
      }
    }
    return any ? page.withColumn(field, builder.build()) : page;
  }

  /** Every extracted field, the general case: a column each that some position matched. */
  private Page extracted(Page page, Block input, boolean[][] set) {
    int positions = page.positionCount();
    List<Map<String, Object>> found = new ArrayList<>(positions);
    for (int p = 0; p < positions; p++) {
      CharSequence text = text(page, input, p);
      found.add(text == null ? Map.of() : extraction.assignments(text));
    }
    Page result = page;
    for (int f = 0; f < fields.size(); f++) {
      String field = fields.get(f);
      if (found.stream().noneMatch(assigned -> assigned.containsKey(field))) {
        continue;
      }
      if (set != null) {
        for (int p = 0; p < positions; p++) {
          set[f][p] = found.get(p).get(field) != null;
        }
      }
      Block existing = page.block(field);
      Block column;
      if (existing == null || existing instanceof BytesBlock) {
        BytesBlock.Builder builder = BytesBlock.builder(positions);
        for (int p = 0; p < positions; p++) {
          Object value = found.get(p).get(field);
          if (value == null) {
            keep((BytesBlock) existing, p, builder);
          } else {
            append(builder, value);
          }
        }
        column = builder.build();
      } else { // a typed column some positions keep: typed over all values, as the rows would be
        List<List<Object>> cells = new ArrayList<>(positions);
        for (int p = 0; p < positions; p++) {
          Object value = found.get(p).get(field);
          cells.add(value == null ? EvalValues.cell(page, field, p) : EvalValues.values(value));
        }
        column = PageBuilder.column(field, cells);
      }
      result = result.withColumn(field, column);
    }
    return result;
  }

  /** Sed mode: the field's first value rewritten at each position that has one. */
  private Block rewritten(Page page, Block input, boolean[][] set) {
    int positions = page.positionCount();
    BytesBlock.Builder builder = BytesBlock.builder(positions);
    for (int p = 0; p < positions; p++) {
      CharSequence text = text(page, input, p);
      if (text == null) {
        builder.appendNull();
        continue;
      }
      if (set != null) {
        set[0][p] = true;
      }
      String value = text.toString();
      try {
        value = sed.rewrite(value);
      } catch (StoppableText.Stopped stopped) {
        // the search is ending (it says so itself): the value stays, as text
      }
      builder.append(value);
    }
    return builder.build();
  }

  /** A position's own value of a text column (none: null) appended unchanged. */
  private void keep(BytesBlock existing, int position, BytesBlock.Builder builder) {
    if (existing == null || existing.isNull(position)) {
      builder.appendNull();
      return;
    }
    int count = existing.getValueCount(position);
    int first = existing.getFirstValueIndex(position);
    if (count > 1) {
      builder.beginPositionEntry();
    }
    for (int v = first; v < first + count; v++) {
      existing.getBytes(v, copied);
      builder.append(copied.bytes(), copied.offset(), copied.length());
    }
    if (count > 1) {
      builder.endPositionEntry();
    }
  }

  /** An extracted value: a text, or (with {@code max_match}) a list of texts. */
  private static void append(BytesBlock.Builder builder, Object value) {
    if (value instanceof List<?> list) {
      builder.beginPositionEntry();
      list.forEach(v -> builder.append(((String) v).getBytes(StandardCharsets.UTF_8)));
      builder.endPositionEntry();
    } else {
      builder.append(((String) value).getBytes(StandardCharsets.UTF_8));
    }
  }
}
