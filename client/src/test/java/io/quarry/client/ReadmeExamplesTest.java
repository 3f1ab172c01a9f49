package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Compiles every {@code java} block of {@code client/README.md} against the client, so the examples
 * users copy cannot drift from the API. (They are compiled, not run: they need a server.)
 */
class ReadmeExamplesTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyJavaExampleCompiles() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    Matcher blocks = JAVA_BLOCK.matcher(readme);
    List<JavaFileObject> sources = new ArrayList<>();
    int n = 0;
    while (blocks.find()) {
      String name = "Example" + n++;
      String source =
          "import io.quarry.client.*;\n"
              + "import java.net.URI;\n"
              + "import java.time.Duration;\n"
              + "import java.util.*;\n"
              + "class "
              + name
              + " {\n  void run() throws Exception {\n"
              + blocks.group(1)
              + "\n  }\n}\n";
      sources.add(
          new SimpleJavaFileObject(
              URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return source;
            }
          });
    }
    assertThat(sources).as("java blocks in README.md").hasSizeGreaterThanOrEqualTo(3);
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    Path out = Files.createTempDirectory("readme-examples");
    StringWriter errors = new StringWriter();
    boolean compiled =
        compiler
            .getTask(
                errors,
                null,
                null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
                null,
                sources)
            .call();
    assertThat(compiled).as(errors.toString()).isTrue();
  }
}
