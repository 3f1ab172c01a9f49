package io.quarry.server.plugins;

/**
 * The parent of every plugin's class loader: the JDK's platform classes and the SPI packages
 * ({@code io.quarry.plugin.api…}) from the server, nothing else. A plugin cannot see Quarry's
 * internals or its libraries (Lucene, Netty, Jackson), and brings its own versions of any library
 * it uses.
 */
final class SpiOnlyClassLoader extends ClassLoader {
  static final String SPI_PREFIX = "io.quarry.plugin.api.";

  private final ClassLoader server;

  static {
    registerAsParallelCapable();
  }

  SpiOnlyClassLoader(ClassLoader server) {
    super("quarry-plugin-spi", ClassLoader.getPlatformClassLoader());
    this.server = server;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (name.startsWith(SPI_PREFIX)) {
      return server.loadClass(name);
    }
    return super.loadClass(name, resolve);
  }
}
