/**
 * From AST to an executable search plan: which indexes, which time range, which part of the search
 * expression the index can answer, and the pipeline that runs on the matching events; and what a
 * bound command needs from the server to run ({@link io.quarry.ql.plan.RunsSearches}: a search
 * runner for {@code map}, read-only where its search text writes nothing; {@link
 * io.quarry.ql.plan.WritesEvents}: an index writer for {@code collect}) and what the subsearches
 * run while the plan was made wrote ({@link io.quarry.ql.plan.Collected}).
 */
package io.quarry.ql.plan;
