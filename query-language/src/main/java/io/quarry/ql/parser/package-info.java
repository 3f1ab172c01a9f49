/**
 * Turns SPL query text into the AST: the {@link io.quarry.ql.parser.Lexer}, the recursive-descent
 * {@link io.quarry.ql.parser.Parser} and {@link io.quarry.ql.parser.QueryParseException}, which
 * carries the line, column and offending token and renders a caret under the query; and the AST
 * back into SPL text ({@link io.quarry.ql.parser.SplText}, its eval expressions by {@link
 * io.quarry.ql.parser.EvalText}).
 */
package io.quarry.ql.parser;
