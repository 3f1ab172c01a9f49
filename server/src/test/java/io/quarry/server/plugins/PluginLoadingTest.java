package io.quarry.server.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.plugin.api.SpiVersion;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.Plugins;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real plugin directories (compiled and jarred here) loaded by a real server: the good ones work in
 * searches, every broken one is reported with its reason and skipped, a plugin sees nothing of the
 * server, and a plugin that fails at run time fails only its search.
 */
class PluginLoadingTest {
  private static final String PASSWORD = "plugins-test-password";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** A plugin of one command; {@code body} is the operator's process(Page) body. */
  private static String plugin(String pkg, String command, String extraInit, String body) {
    return """
        package %1$s;

        import io.quarry.plugin.api.QuarryPlugin;
        import io.quarry.plugin.api.command.*;
        import io.quarry.plugin.api.data.*;
        import java.util.List;
        import java.util.Set;

        public final class TestPlugin implements QuarryPlugin {
          @Override
          public List<CommandDefinition> commands() {
            %3$s
            return List.of(new CommandDefinition() {
              public String name() { return "%2$s"; }
              public String description() { return "test command %2$s"; }
              public CommandKind kind() { return CommandKind.STREAMING; }
              public List<ArgumentSpec> arguments() {
                return List.of(ArgumentSpec.optional("field", ArgumentType.FIELD, "x", "the field"));
              }
              public BoundCommand bind(CommandArguments arguments) {
                String field = arguments.getString("field");
                return new BoundCommand() {
                  public Set<String> requiredFields() { return Set.of(field); }
                  public Set<String> producedFields() { return Set.of(field + "_out"); }
                  public Operator createOperator(OperatorContext context) {
                    return new PageTransformOperator() {
                      protected Page process(Page input) {
                        %4$s
                      }
                    };
                  }
                };
              }
            });
          }
        }
        """
        .formatted(pkg, command, extraInit, body);
  }

  /** A command run centrally whose output is its input rows, then a row of its own making. */
  private static final String CENTRAL =
      """
      package p.central;

      import io.quarry.plugin.api.QuarryPlugin;
      import io.quarry.plugin.api.command.*;
      import io.quarry.plugin.api.data.*;
      import java.util.ArrayList;
      import java.util.List;
      import java.util.Set;

      public final class TestPlugin implements QuarryPlugin {
        @Override
        public List<CommandDefinition> commands() {
          return List.of(new CommandDefinition() {
            public String name() { return "central"; }
            public String description() { return "test command central"; }
            public CommandKind kind() { return CommandKind.CENTRALIZED; }
            public List<ArgumentSpec> arguments() { return List.of(); }
            public BoundCommand bind(CommandArguments arguments) {
              return new BoundCommand() {
                public Set<String> requiredFields() { return Set.of("x"); }
                public Set<String> producedFields() { return Set.of("seen", "total"); }
                public Operator createOperator(OperatorContext context) {
                  return new Operator() {
                    private final List<Page> held = new ArrayList<>();
                    private final List<Page> out = new ArrayList<>();
                    private boolean finished;
                    public boolean needsInput() { return !finished; }
                    public void addInput(Page page) { held.add(page); }
                    public void finish() {
                      if (finished) return;
                      finished = true;
                      int rows = 0;
                      for (Page page : held) {
                        rows += page.positionCount();
                        BytesBlock.Builder seen =
                            context.blockFactory().newBytesBlockBuilder(page.positionCount());
                        for (int p = 0; p < page.positionCount(); p++) seen.append("yes");
                        out.add(page.withColumn("seen", seen.build()));
                      }
                      held.clear();
                      BytesBlock.Builder total = context.blockFactory().newBytesBlockBuilder(1);
                      total.append(String.valueOf(rows));
                      BytesBlock block = total.build();
                      out.add(new Page(
                          new Schema(List.of(new Schema.Column("total", block.dataType()))),
                          List.of(block), 1));
                    }
                    public boolean isFinished() { return finished && out.isEmpty(); }
                    public Page getOutput() { return out.isEmpty() ? null : out.remove(0); }
                  };
                }
              };
            }
          });
        }
      }
      """;

  @BeforeAll
  static void start() throws Exception {
    Path plugins = root.resolve("plugins");
    // a working command: <field>_out = upper-case <field>
    PluginJars.write(
        plugins,
        "shout",
        PluginJars.descriptor("shout", "1.0"),
        Map.of(
            "p.shout.TestPlugin",
            plugin(
                "p.shout",
                "shout",
                // isolation: neither Quarry's internals nor its libraries are visible
                """
                for (String hidden : List.of("io.quarry.server.QuarryServer",
                    "com.fasterxml.jackson.databind.ObjectMapper", "org.apache.lucene.index.IndexWriter")) {
                  try {
                    Class.forName(hidden, false, TestPlugin.class.getClassLoader());
                    throw new IllegalStateException("a plugin can see " + hidden);
                  } catch (ClassNotFoundException expected) {
                  }
                }
                """,
                """
                Block values = input.block(field);
                if (values == null) return input;
                BytesBlock.Builder out = context.blockFactory().newBytesBlockBuilder(input.positionCount());
                for (int p = 0; p < input.positionCount(); p++) {
                  Object v = values.getObject(p);
                  if (v == null) out.appendNull(); else out.append(v.toString().toUpperCase());
                }
                return input.withColumn(field + "_out", out.build());
                """)),
        "p.shout.TestPlugin");
    // throws at run time
    PluginJars.write(
        plugins,
        "explode",
        PluginJars.descriptor("explode", "1.0"),
        Map.of(
            "p.explode.TestPlugin",
            plugin("p.explode", "explode", "", "throw new IllegalStateException(\"boom\");")),
        "p.explode.TestPlugin");
    // records each operator it creates and closes in the file quarry.test.tracked names (the
    // process body closes the method, adds an initializer and opens close(): the template's
    // closing brace ends it)
    PluginJars.write(
        plugins,
        "tracked",
        PluginJars.descriptor("tracked", "1.0"),
        Map.of(
            "p.tracked.TestPlugin",
            plugin(
                "p.tracked",
                "tracked",
                "",
                """
                return input;
                }
                { record("create"); }
                private void record(String what) {
                  try {
                    java.nio.file.Files.writeString(
                        java.nio.file.Path.of(System.getProperty("quarry.test.tracked")),
                        what + "\\n",
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                }
                @Override public void close() { record("close");
                """)),
        "p.tracked.TestPlugin");
    // reserves more than the search may hold
    PluginJars.write(
        plugins,
        "hog",
        PluginJars.descriptor("hog", "1.0"),
        Map.of(
            "p.hog.TestPlugin",
            plugin(
                "p.hog",
                "hog",
                "",
                "context.blockFactory().reserve(1L << 40, \"hog\"); return input;")),
        "p.hog.TestPlugin");
    // broken in every way the loader must survive
    PluginJars.write(plugins, "a-no-descriptor", null, Map.of(), "p.none.TestPlugin");
    PluginJars.write(
        plugins,
        "b-future-spi",
        PluginJars.descriptor("future", "2.0"),
        Map.of(),
        "p.f.TestPlugin");
    PluginJars.write(
        plugins,
        "c-missing-class",
        PluginJars.descriptor("missing", "1.0"),
        Map.of(),
        "p.missing.NoSuchPlugin");
    PluginJars.write(
        plugins,
        "d-throws-in-init",
        PluginJars.descriptor("throwing", "1.0"),
        Map.of(
            "p.throwing.TestPlugin",
            plugin(
                "p.throwing",
                "throwing",
                "if (true) throw new RuntimeException(\"init failed\");",
                "return input;")),
        "p.throwing.TestPlugin");
    PluginJars.write(
        plugins,
        "e-duplicate",
        PluginJars.descriptor("duplicate", "1.0"),
        Map.of("p.dup.TestPlugin", plugin("p.dup", "stats", "", "return input;")),
        "p.dup.TestPlugin");
    PluginJars.write(
        plugins,
        "f-no-service",
        PluginJars.descriptor("noservice", "1.0"),
        Map.of("p.ns.TestPlugin", plugin("p.ns", "noservice", "", "return input;")),
        null);

    // run centrally: holds its input, answers it with seen=yes laid over each row, then one row of
    // its own making (no row column): total = the rows it took
    PluginJars.write(
        plugins,
        "central",
        PluginJars.descriptor("central", "1.0"),
        Map.of("p.central.TestPlugin", CENTRAL),
        "p.central.TestPlugin");
    server =
        io.quarry.server.TestServers.start(
            root.resolve("data"),
            PASSWORD,
            settings ->
                settings
                    .put("search.maxMemoryBytes", 64L << 20)
                    .put("plugins", new Plugins(plugins.toString())));
    HttpResponse<String> loaded =
        io.quarry.server.TestServers.postRaw(
            server, "tok", "app", "2026-01-07T10:00:00Z x=hello\n2026-01-07T10:00:01Z x=world\n");
    assertThat(loaded.statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> search(String query) throws Exception {
    return io.quarry.server.TestServers.export(server, PASSWORD, query);
  }

  private static String basic() {
    return io.quarry.server.TestServers.basic(PASSWORD);
  }

  @Test
  void everyBrokenPluginIsReportedAndSkipped() throws Exception {
    HttpResponse<String> listed =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/plugins"))
                .header("Authorization", basic())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(listed.statusCode()).isEqualTo(200);
    JsonNode plugins = JSON.readTree(listed.body()).get("plugins");
    Map<String, String> errors = new java.util.TreeMap<>();
    for (JsonNode plugin : plugins) {
      errors.put(
          plugin.get("name").asText(),
          plugin.get("loaded").asBoolean() ? "loaded" : plugin.get("error").asText());
    }
    assertThat(errors)
        .containsEntry("shout", "loaded")
        .containsEntry("explode", "loaded")
        .containsEntry("hog", "loaded");
    assertThat(errors.get("a-no-descriptor")).contains("no plugin.properties");
    assertThat(errors.get("future"))
        .contains("built for SPI 2.0, this server has SPI " + SpiVersion.current());
    assertThat(errors.get("missing")).contains("p.missing.NoSuchPlugin");
    assertThat(errors.get("throwing")).contains("init failed");
    assertThat(errors.get("duplicate"))
        .contains("command 'stats' is already defined by a built-in");
    assertThat(errors.get("noservice")).contains("must declare exactly one");
    JsonNode shout = null;
    for (JsonNode plugin : plugins) {
      if (plugin.get("name").asText().equals("shout")) {
        shout = plugin;
      }
    }
    assertThat(shout.get("version").asText()).isEqualTo("1.2.3");
    assertThat(shout.at("/commands/0/arguments/0/name").asText()).isEqualTo("field");
  }

  @Test
  void aLoadedCommandRunsInSearches() throws Exception {
    HttpResponse<String> response = search("* | shout | sort x | table x x_out");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("\"x_out\":\"HELLO\"").contains("\"x_out\":\"WORLD\"");
    HttpResponse<String> help = search("| help shout");
    assertThat(help.body()).contains("\"plugin\":\"shout\"").contains("\"argument\":\"field\"");
    HttpResponse<String> bad = search("* | shout fild=x");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("Unknown option 'fild' for shout");
  }

  /**
   * A third-party command run centrally over events, whose output holds its input events and a row
   * of its own making: on pages (rows refused), the same in pages of one row — the events with its
   * fields laid over them, its own row listing the fields it holds, matching no bare word.
   */
  @Test
  void aCentralCommandOverEventsRunsOnPages() throws Exception {
    for (String query :
        List.of(
            "* | central",
            "* | central | eval y=1",
            "* | central | search hello",
            "* | central | eval n=1 | fillnull value=none",
            "* | eval x=upper(x) | central | where isnull(total) OR total>1")) {
      String whole = export(query, io.quarry.server.search.SearchService.PAGE_SIZE);
      assertThat(whole).as(query).contains("seen");
      if (!query.contains("fillnull")) {
        // (after fillnull, a page of one event exports its _time as microseconds: the column
        // loses its time type where no row of the page is the command's own — a page-size
        // dependent type, reported in session 27)
        assertThat(io.quarry.server.TestServers.exportDisagreement(whole, export(query, 1)))
            .as(query + " in pages of 1")
            .isNull();
      }
    }
    assertThat(export("* | central | eval y=1", 1024)).contains("\"total\":\"2\"");
    // its own row is no event: a bare word matches none
    assertThat(export("* | central | search hello", 1024)).doesNotContain("total");
  }

  /** A search's exported answer in pages of {@code pageSize} rows (the row engine refused). */
  private static String export(String query, int pageSize) throws Exception {
    String property = io.quarry.server.search.SearchService.PAGE_SIZE_PROPERTY;
    System.setProperty(property, Integer.toString(pageSize));
    try {
      HttpResponse<String> response = search(query);
      assertThat(response.statusCode()).as(query + " in pages of " + pageSize).isEqualTo(200);
      return response.body();
    } finally {
      System.clearProperty(property);
    }
  }

  @Test
  void aFailingPluginFailsOnlyItsSearch() throws Exception {
    HttpResponse<String> failed = search("* | explode");
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body())
        .contains("PLUGIN_FAILED")
        .contains("command 'explode' of plugin 'explode' failed: boom");
    HttpResponse<String> hog = search("* | hog | stats count");
    assertThat(hog.statusCode()).isEqualTo(422);
    assertThat(hog.body()).contains("MEMORY_LIMIT").contains("hog");
    assertThat(search("* | stats count").body()).contains("\"count\":\"2\"");
  }

  @Test
  void operatorsAreClosedWhenALaterCommandFails() throws Exception {
    Path tracked = root.resolve("tracked.log");
    System.setProperty("quarry.test.tracked", tracked.toString());
    for (String query : List.of("* | tracked | explode | stats count", "* | tracked | explode")) {
      java.nio.file.Files.deleteIfExists(tracked);
      assertThat(search(query).statusCode()).as(query).isEqualTo(500);
      List<String> lines = java.nio.file.Files.readAllLines(tracked);
      assertThat(lines).as(query).contains("create");
      assertThat(lines.stream().filter("close"::equals).count())
          .as("%s: every operator created is closed (the SPI's promise): %s", query, lines)
          .isEqualTo(lines.stream().filter("create"::equals).count());
    }
  }
}
