/** The SPL abstract syntax tree: immutable records for commands and search expressions. */
package io.quarry.ql.ast;
