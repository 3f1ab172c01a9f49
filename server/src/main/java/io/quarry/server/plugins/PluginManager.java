package io.quarry.server.plugins;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.QuarryPlugin;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.ql.command.CommandRegistry;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The loaded plugins and the command registry they make with the built-ins. Loading never throws
 * for a bad plugin: each failure (no descriptor, unsupported SPI, missing class, an exception in
 * the plugin's code, a command name already taken) is logged, kept in {@link #plugins} with its
 * reason, and the plugin is skipped.
 */
public final class PluginManager {
  private static final Logger LOG = Logger.getLogger(PluginManager.class.getName());

  /** One plugin directory (or plugin given in code) and what became of it. */
  public record LoadedPlugin(
      String name,
      String version,
      String description,
      String spiVersion,
      String location,
      List<String> commands,
      String error) {

    public boolean loaded() {
      return error == null;
    }
  }

  private final CommandRegistry registry;
  private final List<LoadedPlugin> plugins;
  private final List<URLClassLoader> loaders;

  private PluginManager(
      CommandRegistry registry, List<LoadedPlugin> plugins, List<URLClassLoader> loaders) {
    this.registry = registry;
    this.plugins = List.copyOf(plugins);
    this.loaders = List.copyOf(loaders);
  }

  /** No plugins: the built-in commands only. */
  public static PluginManager none() {
    return new PluginManager(CommandRegistry.builtIns(), List.of(), List.of());
  }

  /**
   * Loads every plugin directory under {@code directory} (absent: none), in name order, plus {@code
   * extra} plugins given as instances (the test kit's; named by their class).
   */
  public static PluginManager load(Path directory, List<QuarryPlugin> extra) {
    CommandRegistry registry = CommandRegistry.builtIns();
    List<LoadedPlugin> plugins = new ArrayList<>();
    List<URLClassLoader> loaders = new ArrayList<>();
    for (Path pluginDir : subdirectories(directory)) {
      PluginDescriptor descriptor = null;
      URLClassLoader loader = null;
      try {
        descriptor = PluginDescriptor.read(pluginDir);
        descriptor.requireSupportedSpi();
        loader = classLoader(descriptor.name(), pluginDir);
        QuarryPlugin plugin = instantiate(descriptor.name(), loader);
        List<CommandDefinition> commands = commands(descriptor.name(), plugin);
        registry = registry.withPlugin(descriptor.name(), commands);
        loaders.add(loader);
        plugins.add(
            new LoadedPlugin(
                descriptor.name(),
                descriptor.version(),
                descriptor.description(),
                descriptor.spiVersion(),
                pluginDir.toString(),
                commands.stream().map(CommandDefinition::name).toList(),
                null));
        LOG.info(
            "loaded plugin "
                + descriptor.name()
                + " "
                + descriptor.version()
                + " from "
                + pluginDir
                + ": commands "
                + commands.stream().map(CommandDefinition::name).toList());
      } catch (Exception | LinkageError | ServiceConfigurationError e) {
        closeQuietly(loader);
        String name = descriptor != null ? descriptor.name() : pluginDir.getFileName().toString();
        String reason = reason(e);
        LOG.log(
            Level.WARNING,
            "plugin " + name + " in " + pluginDir + " was not loaded: " + reason,
            e instanceof IllegalArgumentException ? null : e);
        plugins.add(
            new LoadedPlugin(
                name,
                descriptor != null ? descriptor.version() : "",
                descriptor != null ? descriptor.description() : "",
                descriptor != null ? descriptor.spiVersion() : "",
                pluginDir.toString(),
                List.of(),
                reason));
      }
    }
    for (QuarryPlugin plugin : extra) {
      String name = plugin.getClass().getSimpleName();
      try {
        List<CommandDefinition> commands = commands(name, plugin);
        registry = registry.withPlugin(name, commands);
        plugins.add(
            new LoadedPlugin(
                name,
                "",
                "",
                io.quarry.plugin.api.SpiVersion.current(),
                "class path",
                commands.stream().map(CommandDefinition::name).toList(),
                null));
      } catch (RuntimeException e) {
        plugins.add(new LoadedPlugin(name, "", "", "", "class path", List.of(), reason(e)));
        LOG.warning("plugin " + name + " was not loaded: " + reason(e));
      }
    }
    return new PluginManager(registry, plugins, loaders);
  }

  /** The built-in commands plus every loaded plugin's. */
  public CommandRegistry registry() {
    return registry;
  }

  /** Every plugin found, loaded or not. */
  public List<LoadedPlugin> plugins() {
    return plugins;
  }

  private static List<Path> subdirectories(Path directory) {
    if (directory == null || !Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(directory)) {
      List<Path> dirs = new ArrayList<>(entries.filter(Files::isDirectory).toList());
      Collections.sort(dirs);
      return dirs;
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot list plugins directory " + directory, e);
      return List.of();
    }
  }

  private static URLClassLoader classLoader(String name, Path pluginDir) throws IOException {
    List<URL> urls = new ArrayList<>();
    try (Stream<Path> files = Files.walk(pluginDir, 2)) {
      for (Path jar : files.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
        urls.add(toUrl(jar));
      }
    }
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no jar in " + pluginDir);
    }
    return new URLClassLoader(
        "quarry-plugin-" + name,
        urls.toArray(URL[]::new),
        new SpiOnlyClassLoader(PluginManager.class.getClassLoader()));
  }

  private static URL toUrl(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("bad jar path " + jar, e);
    }
  }

  private static QuarryPlugin instantiate(String name, ClassLoader loader) {
    List<QuarryPlugin> found = new ArrayList<>();
    for (QuarryPlugin plugin : ServiceLoader.load(QuarryPlugin.class, loader)) {
      if (plugin.getClass().getClassLoader() == loader) {
        found.add(plugin);
      }
    }
    if (found.size() != 1) {
      throw new IllegalArgumentException(
          "plugin '"
              + name
              + "' must declare exactly one "
              + QuarryPlugin.class.getName()
              + " in META-INF/services, found "
              + found.size());
    }
    return found.get(0);
  }

  private static List<CommandDefinition> commands(String name, QuarryPlugin plugin) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(plugin.getClass().getClassLoader());
    try {
      List<CommandDefinition> commands = plugin.commands();
      return List.copyOf(requireNonNull(commands, "plugin '" + name + "' returned null commands"));
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private static String reason(Throwable e) {
    if (e instanceof ServiceConfigurationError && e.getCause() != null) {
      return e.getMessage() + " (" + reason(e.getCause()) + ")";
    }
    String message = e.getMessage();
    return e instanceof IllegalArgumentException && message != null
        ? message
        : e.getClass().getName() + (message == null ? "" : ": " + message);
  }

  private static void closeQuietly(URLClassLoader loader) {
    if (loader != null) {
      try {
        loader.close();
      } catch (IOException ignored) {
        // the loader held only jars of a plugin that failed anyway
      }
    }
  }
}
