/**
 * The first-slice execution of a pipeline: push-based row operators (filter, head, stats) ending in
 * typed {@link io.quarry.plugin.api.data.Page}s. The search-engine issue replaces the row operators
 * with pull operators over pages; the interfaces here are deliberately small so that swap is local.
 */
package io.quarry.ql.exec;
