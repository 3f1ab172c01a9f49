/**
 * The first-slice execution of a pipeline: push-based row operators (filter, head, stats) ending in
 * typed {@link io.quarry.plugin.api.data.Page}s; {@link io.quarry.ql.exec.RowPageOperator} puts any
 * of them behind the pull protocol of pages. The search-engine issue replaces the row operators
 * with pull operators over typed blocks; the interfaces here are deliberately small so that swap is
 * local.
 */
package io.quarry.ql.exec;
