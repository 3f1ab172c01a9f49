package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.EventText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The rows of an event listing's pages that are no events ({@link EventListing#withOtherRows}: an
 * {@code append}'s subsearch rows among the events), each known by a null in {@link
 * ListingColumns#EVENT_RAW}, and the fields such a row lists.
 */
final class OtherRows {
  private OtherRows() {}

  /** Whether position {@code p} is a row that is no event. */
  static boolean isOther(Page page, int p) {
    Block own = page.block(ListingColumns.EVENT_RAW);
    return own == null || own.isNull(p);
  }

  /**
   * The fields a row that is no event holds a value in: as its own page named them ({@link
   * EventText#OTHER_ROW_FIELDS}), {@code changes} laid over them, else in its page's column order.
   */
  static List<String> heldNames(Page page, int p, ListedFields changes) {
    Block own = page.block(EventText.OTHER_ROW_FIELDS);
    if (own != null && !own.isNull(p)) {
      List<String> named = new ArrayList<>();
      own.getValues(p).forEach(name -> named.add((String) name));
      // the later commands' changes laid over them as over an event's (a renamed field in its
      // old name's place, a new one last)
      changes.apply(named, field -> EventListing.hasValue(page, field, p), new HashSet<>());
      // a later command may have cleared it
      named.removeIf(name -> !EventListing.hasValue(page, name, p));
      return named;
    }
    return EventText.heldNames(page, p);
  }
}
