package io.quarry.ql.exec;

/**
 * Marks a built-in page command whose operator answers every input page before it takes the next
 * and keeps the input order: the overlay over events around it ({@link PluginOverlayOperator})
 * keeps no earlier batch of events once a page is answered.
 */
public interface PageAtATime {}
