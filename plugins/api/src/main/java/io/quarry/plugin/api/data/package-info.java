/**
 * Typed columnar batches: a {@link io.quarry.plugin.api.data.Page} is a list of equally long {@link
 * io.quarry.plugin.api.data.Block}s, one per column, described by a {@link
 * io.quarry.plugin.api.data.Schema}. Operators, plugins and the wire formats all speak pages;
 * nothing converts a result to rows before the wire.
 *
 * <p>Blocks built through a {@link io.quarry.plugin.api.data.BlockFactory} are reserved against the
 * search's {@link io.quarry.plugin.api.data.MemoryAccount}; see the factory for who releases what.
 *
 * <p>A block position holds no value, one value, or several (a multivalue): values are stored flat
 * with the index of each position's first value, an index that blocks without multivalues do not
 * keep (see {@link io.quarry.plugin.api.data.Block}). A string block may also hold its values as
 * ordinals into a dictionary, or as one constant (SPI 1.5; see {@link
 * io.quarry.plugin.api.data.BytesBlock}).
 *
 * <p>{@link io.quarry.plugin.api.data.LongBlock}, {@link io.quarry.plugin.api.data.DoubleBlock} and
 * {@link io.quarry.plugin.api.data.BooleanBlock} are generated from one template, {@code
 * src/main/templates/X-Block.java.tmpl} (its grammar: {@code SourceTemplate} in this module's
 * tests), and committed; {@code GeneratedBlocksTest} fails when one is not the template's expansion
 * and rewrites them with {@code -Dquarry.regenerate=true}. Edit the template, never the files. The
 * string block has a shape of its own and is written by hand.
 */
package io.quarry.plugin.api.data;
