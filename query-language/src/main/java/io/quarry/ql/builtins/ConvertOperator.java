package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.BlockCopies;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code convert}'s operator: per page, each conversion's fields are found among the page's columns
 * (wildcards expanded, {@code none()}'s fields left out), and each value converted; a value that
 * does not convert stays as it is, except with {@code num()}, which removes it.
 */
final class ConvertOperator extends PageTransformOperator {
  private final BlockFactory factory;
  private final ZoneId zone;
  private final String timeformat;
  private final List<ConvertCommand.Conversion> conversions;

  ConvertOperator(
      OperatorContext context, String timeformat, List<ConvertCommand.Conversion> conversions) {
    this.factory = context.blockFactory();
    this.zone = context.zone();
    this.timeformat = timeformat;
    this.conversions = conversions;
  }

  @Override
  protected Page process(Page input) {
    List<String> names = Cells.fieldNames(input);
    Set<String> excluded = new HashSet<>();
    for (ConvertCommand.Conversion conversion : conversions) {
      if (conversion.function().equals("none")) {
        excluded.addAll(Fields.matching(conversion.field(), names));
      }
    }
    Page page = input;
    for (ConvertCommand.Conversion conversion : conversions) {
      if (conversion.function().equals("none")) {
        continue;
      }
      for (String field : Fields.matching(conversion.field(), names)) {
        if (excluded.contains(field)) {
          continue;
        }
        Block block = page.block(field);
        if (block == null) {
          continue;
        }
        String target = conversion.target(field);
        Block converted = convert(conversion.function(), block, target);
        if (converted != null) {
          page = factory.withColumn(page, target, converted);
        } else if (!target.equals(field)) {
          // a time column left as it is, copied under its new name
          page =
              factory.withColumn(
                  page,
                  target,
                  BlockCopies.take(factory, block, all(block), block.positionCount()));
        }
      }
    }
    return page;
  }

  private static int[] all(Block block) {
    int[] positions = new int[block.positionCount()];
    for (int p = 0; p < positions.length; p++) {
      positions[p] = p;
    }
    return positions;
  }

  /** The converted column, or null to leave a timestamp column as it is (already a number). */
  private Block convert(String function, Block block, String target) {
    if (block.dataType() == DataType.TIMESTAMP && !function.equals("ctime")) {
      return null;
    }
    Cells.Column column = new Cells.Column();
    for (int p = 0; p < block.positionCount(); p++) {
      List<Object> values = Cells.values(block, p);
      List<Object> out = new ArrayList<>(values.size());
      for (Object value : values) {
        Object converted = Conversions.convert(function, value, timeformat, zone);
        if (converted instanceof Number seconds && io.quarry.ql.exec.TimeField.is(target)) {
          converted = Math.round(seconds.doubleValue() * 1_000_000d); // _time holds microseconds
        }
        if (converted != null) {
          out.add(converted);
        } else if (!function.equals("num")) {
          out.add(value);
        }
      }
      column.add(out);
    }
    return column.build(factory, target);
  }
}
