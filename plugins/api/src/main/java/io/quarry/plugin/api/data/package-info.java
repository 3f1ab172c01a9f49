/**
 * Typed columnar batches: a {@link io.quarry.plugin.api.data.Page} is a list of equally long {@link
 * io.quarry.plugin.api.data.Block}s, one per column, described by a {@link
 * io.quarry.plugin.api.data.Schema}. Operators, plugins and the wire formats all speak pages;
 * nothing converts a result to rows before the wire.
 *
 * <p>This is the first cut of the batch model: dense single-valued blocks with a null mask.
 * Multivalue offsets and dictionary blocks arrive with the search-engine issue.
 */
package io.quarry.plugin.api.data;
