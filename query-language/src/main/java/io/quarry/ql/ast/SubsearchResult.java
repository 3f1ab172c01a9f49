package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import java.util.List;

/**
 * What a subsearch answered: its result pages (at most its row limit), their size, and the messages
 * of its run (cut at maxout or maxtime, …).
 *
 * @param pages the result pages, in order
 * @param rows the number of rows in them
 * @param bytes their estimated memory ({@code ramBytesUsed}), reserved by the operator that holds
 *     them on the outer search's memory account
 * @param messages what the outer search's answer says about the subsearch
 */
public record SubsearchResult(List<Page> pages, long rows, long bytes, List<String> messages) {
  public SubsearchResult {
    pages = List.copyOf(requireNonNull(pages, "pages is null"));
    messages = List.copyOf(requireNonNull(messages, "messages is null"));
  }
}
