package io.quarry.ql.exec;

/**
 * Marks a built-in page command whose operator answers every input page before it takes the next
 * and keeps the input order: the adapter that runs it among row operators ({@link PluginOperators})
 * then keeps no earlier batch of rows once a page is answered.
 */
public interface PageAtATime {}
