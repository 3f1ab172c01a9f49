/**
 * Command plugins: {@link io.quarry.server.plugins.PluginManager} loads each subdirectory of the
 * plugins directory (its {@link io.quarry.server.plugins.PluginDescriptor} and jars) in a class
 * loader of its own whose parent exposes only the SPI, finds its {@code QuarryPlugin} with {@link
 * java.util.ServiceLoader}, and adds its commands to the command registry; a plugin that fails is
 * reported and skipped.
 */
package io.quarry.server.plugins;
