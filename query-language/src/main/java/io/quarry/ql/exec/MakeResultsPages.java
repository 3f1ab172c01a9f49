package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.MakeResultsCommand;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * {@code | makeresults}' results made straight as typed pages, for the page engine: {@code count}
 * positions whose {@code _time} is the search's now (a {@link DataType#TIMESTAMP} column, epoch
 * microseconds), and with {@code annotate=true} Splunk's {@code _raw}, {@code host}, {@code
 * source}, {@code sourcetype} (empty texts) and {@code splunk_server} — the columns, in the order
 * and with the types {@link PageBuilder} gives the row generator's rows. Pages are made one at a
 * time as they are asked for (a {@code head} after it stops asking).
 */
public final class MakeResultsPages implements java.util.Iterator<Page> {
  private static final String SERVER = "quarry";
  private static final List<String> ANNOTATIONS =
      List.of("_raw", "host", "source", "sourcetype", "splunk_server");

  private final MakeResultsCommand command;
  private final long micros;
  private final int pageSize;
  private long made;

  /** The pages of {@code command} run at {@code now}, at most {@code pageSize} positions each. */
  public MakeResultsPages(MakeResultsCommand command, Instant now, int pageSize) {
    if (pageSize <= 0) {
      throw new IllegalArgumentException("pageSize must be positive: " + pageSize);
    }
    this.command = command;
    this.micros = Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1_000;
    this.pageSize = pageSize;
  }

  @Override
  public boolean hasNext() {
    return made < command.count();
  }

  @Override
  public Page next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    int positions = (int) Math.min(pageSize, command.count() - made);
    made += positions;
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    LongBlock.Builder time = LongBlock.builder(DataType.TIMESTAMP, positions);
    for (int i = 0; i < positions; i++) {
      time.append(micros);
    }
    columns.add(new Schema.Column(PageBuilder.TIME_FIELD, DataType.TIMESTAMP));
    blocks.add(time.build());
    if (command.annotate()) {
      for (String name : ANNOTATIONS) {
        String value = name.equals("splunk_server") ? SERVER : "";
        BytesBlock.Builder text = BytesBlock.builder(positions);
        for (int i = 0; i < positions; i++) {
          text.append(value);
        }
        columns.add(new Schema.Column(name, DataType.STRING));
        blocks.add(text.build());
      }
    }
    return new Page(new Schema(columns), blocks, positions);
  }
}
