/**
 * From AST to an executable search plan: which indexes, which time range, which part of the search
 * expression the index can answer, and the pipeline that runs on the matching events.
 */
package io.quarry.ql.plan;
