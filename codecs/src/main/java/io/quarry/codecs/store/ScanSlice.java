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

  /**
   * Charges the search {@code bytes} that the scan holds for {@code held} on behalf of this slice
   * and the other slices of its segment (the segment's candidate blocks, found once: {@code
   * LeafMatches}); the scan gives them back through {@link #discharge} exactly once, when it ends,
   * possibly on another thread. Called on the slice's thread, before its cursor opens.
   *
   * @throws RuntimeException the search's memory-limit error when the bytes do not fit: nothing is
   *     held then, and the slice fails with it
   */
  default void charge(Object held, long bytes) {}

  /** Gives back what {@link #charge} charged for {@code held}. */
  default void discharge(Object held, long bytes) {}

  /**
   * Whether the slice's search stopped (cancelled, finalized, past its time limit, failed): work
   * the scan does for the slice before its cursor opens (finding its segment's candidate blocks)
   * ends.
   */
  default boolean stopped() {
    return false;
  }

  /**
   * Called on the slice's thread once the slice ended (its visitor finished or closed) when every
   * slice of the scan has started: this thread reads no later slice of the scan, so what the
   * slices' readers keep from one slice to the next (a fused scan's key tables) may be handed on
   * now, beside the slices still running, rather than on one thread after the scan. A failure here
   * fails the scan as the slice's own would.
   */
  default void noSliceLeft() {}

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
