package io.quarry.ql.exec;

/**
 * A plugin's command threw while running: the search fails with this, naming the command and the
 * plugin; the server and other searches are unaffected.
 */
public final class PluginFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String plugin;

  PluginFailureException(String command, String plugin, Throwable cause) {
    super(
        "command '"
            + command
            + (plugin.equals("built-in") ? "" : "' of plugin '" + plugin)
            + "' failed: "
            + (cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage()),
        cause);
    this.plugin = plugin;
  }

  public String plugin() {
    return plugin;
  }
}
