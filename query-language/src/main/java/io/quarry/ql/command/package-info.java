/**
 * The command registry: which search commands exist, how each parses its arguments, and the
 * did-you-mean suggestion for names it does not know.
 */
package io.quarry.ql.command;
