/**
 * The page engine: commands as pull {@link io.quarry.plugin.api.command.Operator}s over typed
 * {@link io.quarry.plugin.api.data.Page}s (the protocol plugins implement), moved by a {@link
 * io.quarry.ql.engine.Driver}. It replaces the row operators of {@code io.quarry.ql.exec} one
 * command at a time (docs/design/page-engine.md): today it runs the map and reduce sides of {@code
 * stats} in batch mode; the other commands still run as rows. {@link
 * io.quarry.ql.engine.LongPages}, {@link io.quarry.ql.engine.IntPages} and {@link
 * io.quarry.ql.engine.BytePool} are the engine's paged arrays: state that grows with the groups
 * (hash tables, key bytes, per-group states) lives in 64 KiB pages, never in one array G1 must
 * allocate as humongous; the two primitive ones share their growth in {@link
 * io.quarry.ql.engine.PagedArray}. {@link io.quarry.ql.engine.DictionaryBlockBuilder} writes a
 * low-cardinality string column as a dictionary block. {@link io.quarry.ql.engine.BlockCopies}
 * copies chosen positions of a block; its long, double and boolean copies ({@code LongBlockCopies}
 * and kin) are generated from {@code src/main/templates/X-BlockCopies.java.tmpl} and committed,
 * checked by {@code GeneratedCopiesTest} (the grammar and the rewrite flag: plugins/api's {@code
 * io.quarry.plugin.api.template}).
 */
package io.quarry.ql.engine;
