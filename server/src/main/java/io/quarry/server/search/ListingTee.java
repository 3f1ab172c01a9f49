package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import java.util.function.Consumer;

/**
 * A step of a chain that passes every page on as it came and also lays its rows out by an event
 * listing of its own into {@code out}: an {@code outputlookup} inside a time-ordered listing, whose
 * table takes the events as the commands before it leave them while the commands after it go on
 * with them ({@link TimeOrderedChain}). Once finished, the rows its listing still holds go out too;
 * closed, it closes its listing (what the rows held is given back).
 */
final class ListingTee extends PageTransformOperator {
  private final EventListing listing;
  private final Consumer<Page> out;

  ListingTee(EventListing listing, Consumer<Page> out) {
    this.listing = requireNonNull(listing, "listing is null");
    this.out = requireNonNull(out, "out is null");
  }

  @Override
  protected Page process(Page page) {
    listing.addInput(page);
    drain();
    return page;
  }

  @Override
  public void finish() {
    super.finish();
    listing.finish();
    drain();
  }

  @Override
  public void close() {
    listing.close();
  }

  private void drain() {
    for (Page page = listing.getOutput(); page != null; page = listing.getOutput()) {
      out.accept(page);
    }
  }
}
