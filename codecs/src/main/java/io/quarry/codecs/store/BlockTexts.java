package io.quarry.codecs.store;

import io.quarry.codecs.block.EventBlock;

/**
 * The texts ({@code _raw}) of one decoded event block, as {@link BlockEvents} lends them without
 * copying: where they lie ({@link TextRegion}, the same object for every event of the block), an
 * ASCII event's text viewed in place ({@link AsciiText}), and whether every text is ASCII — as the
 * block's header records it (written since session 32), else checked once over the block's whole
 * text section instead of once per event (nearly every block of machine data is).
 */
final class BlockTexts {
  private final EventBlock block;
  private TextRegion region; // made when first asked for
  private int allAscii; // 0: not checked yet, 1: every text is ASCII, -1: some is not

  BlockTexts(EventBlock block) {
    this.block = block;
  }

  /** Where the block's texts lie: {@code bytes[start, end)} of its decoded payload. */
  TextRegion region() {
    if (region == null) {
      region = new TextRegion(block.bytes(), block.rawOffset(0), block.rawOffset(block.count()));
    }
    return region;
  }

  /** Event {@code doc}'s text as characters over the block's bytes, or null when not ASCII. */
  CharSequence view(int doc) {
    int offset = block.rawOffset(doc);
    int length = block.rawLength(doc);
    return (allAscii() || AsciiText.isAscii(block.bytes(), offset, length))
        ? new AsciiText().reset(block.bytes(), offset, length)
        : null;
  }

  /** Whether every event's text is ASCII. */
  boolean allAscii() {
    if (allAscii == 0) {
      allAscii =
          switch (block.texts()) {
            case ALL_ASCII -> 1;
            case SOME_NOT_ASCII -> -1;
            case UNRECORDED -> {
              int start = block.rawOffset(0);
              int end = block.rawOffset(block.count());
              yield AsciiText.isAscii(block.bytes(), start, end - start) ? 1 : -1;
            }
          };
    }
    return allAscii > 0;
  }
}
