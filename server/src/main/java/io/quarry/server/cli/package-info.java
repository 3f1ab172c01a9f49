/**
 * The {@code quarry} command line (picocli): {@code server}, {@code demo}, {@code search}, {@code
 * ingest}, {@code version}. The launcher script {@code bin/quarry} runs {@link
 * io.quarry.server.cli.QuarryCli}.
 */
package io.quarry.server.cli;
