package io.quarry.plugin.api.command;

import java.util.List;

/**
 * A search command a plugin adds: its name, kind and declared arguments (the parser validates a use
 * against them, and {@code | help name} lists them), and how a validated use becomes a {@link
 * BoundCommand}. Instances are shared by every search: keep them stateless.
 */
public interface CommandDefinition {

  /** The lower-case name used in queries ({@code urlparse}). */
  String name();

  /** One or two sentences for {@code | help} and {@code GET /api/v1/plugins}. */
  String description();

  CommandKind kind();

  /** Declared arguments; undeclared options are parse errors. */
  List<ArgumentSpec> arguments();

  /**
   * Binds one use of the command, when the query is parsed.
   *
   * @throws IllegalArgumentException when the arguments are individually valid but do not make
   *     sense together; the message is shown to the user as a parse error at the command
   */
  BoundCommand bind(CommandArguments arguments);
}
