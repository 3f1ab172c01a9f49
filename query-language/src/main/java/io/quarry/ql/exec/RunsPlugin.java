package io.quarry.ql.exec;

/**
 * An operator that runs a plugin command's code, bare ({@link PluginOperator}) or wrapped ({@link
 * PluginOverlayOperator}, {@link PluginMapOperator}): a failure the {@link Driver} finds in it (a
 * broken blocking protocol, a failed future) names the plugin.
 */
interface RunsPlugin {
  /** The failure of this plugin command, caused by {@code cause}. */
  PluginFailureException failure(Throwable cause);
}
