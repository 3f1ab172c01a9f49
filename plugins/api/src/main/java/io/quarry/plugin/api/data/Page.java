package io.quarry.plugin.api.data;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * An immutable batch of rows stored column by column: equally long blocks, one per column of its
 * {@link Schema}.
 */
public record Page(Schema schema, List<Block> blocks, int positionCount) {

  public Page {
    requireNonNull(schema, "schema is null");
    blocks = List.copyOf(requireNonNull(blocks, "blocks is null"));
    if (blocks.size() != schema.size()) {
      throw new IllegalArgumentException(
          "schema has " + schema.size() + " columns but page has " + blocks.size() + " blocks");
    }
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      if (block.positionCount() != positionCount) {
        throw new IllegalArgumentException(
            "block "
                + i
                + " has "
                + block.positionCount()
                + " positions, expected "
                + positionCount);
      }
      DataType declared = schema.column(i).type();
      if (block.dataType() != declared) {
        throw new IllegalArgumentException(
            "column '"
                + schema.column(i).name()
                + "' is "
                + declared
                + " but its block is "
                + block.dataType());
      }
    }
  }

  public Page(Schema schema, List<Block> blocks) {
    this(schema, blocks, blocks.isEmpty() ? 0 : blocks.get(0).positionCount());
  }

  public Block block(int column) {
    return blocks.get(column);
  }

  /** The block of a column by name, or null when the page has no such column. */
  public Block block(String name) {
    int column = schema.indexOf(name);
    return column < 0 ? null : blocks.get(column);
  }

  /**
   * This page with a column added at the end, or replacing the column of that name in place (the
   * replaced block is no longer part of the returned page: its owner releases it).
   */
  public Page withColumn(String name, Block block) {
    java.util.List<Schema.Column> columns = new java.util.ArrayList<>(schema.columns());
    java.util.List<Block> newBlocks = new java.util.ArrayList<>(blocks);
    Schema.Column column = new Schema.Column(name, block.dataType());
    int existing = schema.indexOf(name);
    if (existing >= 0) {
      columns.set(existing, column);
      newBlocks.set(existing, block);
    } else {
      columns.add(column);
      newBlocks.add(block);
    }
    return new Page(new Schema(columns), newBlocks, positionCount);
  }
}
