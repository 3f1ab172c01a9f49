/**
 * Turns SPL query text into the AST: the {@link io.quarry.ql.parser.Lexer}, the recursive-descent
 * {@link io.quarry.ql.parser.Parser} and {@link io.quarry.ql.parser.QueryParseException}, which
 * carries the line, column and offending token and renders a caret under the query; and the AST
 * back into SPL text ({@link io.quarry.ql.parser.SplText}, its eval expressions by {@link
 * io.quarry.ql.parser.EvalText}, the commands with options of their own by {@code CommandText},
 * {@code chart}/{@code timechart} by {@code ChartText}, subsearches by {@code SubsearchText}).
 */
package io.quarry.ql.parser;
