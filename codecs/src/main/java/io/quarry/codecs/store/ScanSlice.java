package io.quarry.codecs.store;

import java.io.IOException;

/**
 * One slice of a parallel scan as its reader sees it: the {@link EventVisitor} its events go to,
 * and the loop that pulls them ({@link #pull}, advancing the slice's {@link SliceCursor} as far as
 * it wants). {@link #visiting} is the push form: every event of the slice, as fast as it comes.
 */
public interface ScanSlice {
  /** The visitor the slice's events go to (asked once, before the cursor opens). */
  EventVisitor visitor();

  /**
   * Reads the slice, on the scan's thread, through {@code cursor} (opened over {@link #visitor});
   * returning before the cursor ended stops the slice there.
   */
  void pull(SliceCursor cursor) throws IOException;

  /** Every event of the slice to {@code visitor}, until it returns false. */
  static ScanSlice visiting(EventVisitor visitor) {
    return new ScanSlice() {
      @Override
      public EventVisitor visitor() {
        return visitor;
      }

      @Override
      public void pull(SliceCursor cursor) throws IOException {
        while (cursor.advance(Integer.MAX_VALUE)) {
          // the cursor visits until the slice ends
        }
      }
    };
  }
}
