/**
 * Typed columnar batches: a {@link io.quarry.plugin.api.data.Page} is a list of equally long {@link
 * io.quarry.plugin.api.data.Block}s, one per column, described by a {@link
 * io.quarry.plugin.api.data.Schema}. Operators, plugins and the wire formats all speak pages;
 * nothing converts a result to rows before the wire.
 *
 * <p>Blocks built through a {@link io.quarry.plugin.api.data.BlockFactory} are reserved against the
 * search's {@link io.quarry.plugin.api.data.MemoryAccount}; see the factory for who releases what.
 *
 * <p>This is the first cut of the batch model: dense single-valued blocks with a null mask.
 * Multivalue offsets and dictionary blocks arrive with the search-engine issue.
 */
package io.quarry.plugin.api.data;
