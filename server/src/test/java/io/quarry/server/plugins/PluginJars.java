package io.quarry.server.plugins;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Builds real plugin directories for tests: compiles sources with javac and writes a jar. */
public final class PluginJars {
  private PluginJars() {}

  /**
   * Writes {@code <plugins>/<directory>/}: {@code plugin.properties} (when {@code descriptor} is
   * not null) and {@code plugin.jar} of the compiled {@code sources} (class name → source) with a
   * services file naming {@code service} (when not null).
   */
  public static Path write(
      Path plugins,
      String directory,
      String descriptor,
      Map<String, String> sources,
      String service)
      throws IOException {
    Path dir = Files.createDirectories(plugins.resolve(directory));
    if (descriptor != null) {
      Files.writeString(dir.resolve("plugin.properties"), descriptor);
    }
    Path work = Files.createTempDirectory("plugin-src");
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> files = new ArrayList<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = work.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      files.add(file.toString());
    }
    if (!files.isEmpty()) {
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      List<String> arguments =
          new ArrayList<>(
              List.of(
                  "-d",
                  classes.toString(),
                  "--release",
                  "21",
                  "-cp",
                  System.getProperty("java.class.path")));
      arguments.addAll(files);
      int status = javac.run(null, null, null, arguments.toArray(String[]::new));
      if (status != 0) {
        throw new IllegalStateException("javac failed for " + directory);
      }
    }
    try (JarOutputStream jar =
        new JarOutputStream(Files.newOutputStream(dir.resolve("plugin.jar")))) {
      if (service != null) {
        jar.putNextEntry(new JarEntry("META-INF/services/io.quarry.plugin.api.QuarryPlugin"));
        jar.write((service + "\n").getBytes(StandardCharsets.UTF_8));
      }
      try (Stream<Path> walk = Files.walk(classes)) {
        for (Path file : walk.filter(Files::isRegularFile).toList()) {
          jar.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
          jar.write(Files.readAllBytes(file));
        }
      }
    }
    return dir;
  }

  public static String descriptor(String name, String spi) {
    return "name="
        + name
        + "\nversion=1.2.3\ndescription=test plugin "
        + name
        + "\nspi.version="
        + spi
        + "\n";
  }
}
