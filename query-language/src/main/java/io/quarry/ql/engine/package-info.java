/**
 * The page engine: commands as pull {@link io.quarry.plugin.api.command.Operator}s over typed
 * {@link io.quarry.plugin.api.data.Page}s (the protocol plugins implement), moved by a {@link
 * io.quarry.ql.engine.Driver}. It replaces the row operators of {@code io.quarry.ql.exec} one
 * command at a time (docs/design/page-engine.md): today it runs the map and reduce sides of {@code
 * stats} in batch mode; the other commands still run as rows.
 */
package io.quarry.ql.engine;
