package io.quarry.server.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A headless Chromium driven over the Chrome DevTools Protocol (a WebSocket; the JDK's client and
 * Jackson, no WebDriver): navigate, evaluate JavaScript, real mouse clicks and key presses, typing,
 * screenshots, and the page's uncaught errors. The browser is found — or installed by {@code
 * server/src/test/scripts/install-chromium.sh} — by {@link #start}, which fails (does not skip)
 * when there is none.
 */
final class Chromium implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path INSTALLER = Path.of("src/test/scripts/install-chromium.sh");

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final List<String> pageErrors = new CopyOnWriteArrayList<>();

  private Chromium(Process process, Path profile, WebSocket socket) {
    this.process = process;
    this.profile = profile;
    this.socket = socket;
  }

  /** The browser's path: on PATH, or installed now; an AssertionError saying why when neither. */
  static String executable() throws Exception {
    if (!Files.isExecutable(INSTALLER)) {
      throw new AssertionError("missing " + INSTALLER.toAbsolutePath());
    }
    Process installer =
        new ProcessBuilder("bash", INSTALLER.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String output;
    try (InputStream in = installer.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
    if (!installer.waitFor(15, TimeUnit.MINUTES) || installer.exitValue() != 0) {
      throw new AssertionError(
          "The search page's browser test needs Chromium, and "
              + INSTALLER
              + " could not find or install it (its reasons are above). Install it with 'apt-get"
              + " install -y chromium' or point QUARRY_CHROMIUM at a Chromium or Chrome binary.");
    }
    String[] lines = output.split("\n");
    return lines[lines.length - 1].strip();
  }

  static Chromium start(int width, int height) throws Exception {
    String browser = executable();
    Path profile = Files.createTempDirectory("quarry-chromium");
    List<String> command =
        new ArrayList<>(
            List.of(
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
                "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height,
                "about:blank"));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(profile.resolve("chromium.log").toFile())
            .start();
    Path portFile = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String log =
            Files.exists(profile.resolve("chromium.log"))
                ? Files.readString(profile.resolve("chromium.log"))
                : "";
        process.destroyForcibly();
        throw new AssertionError("Chromium did not start (" + browser + "):\n" + log);
      }
      Thread.sleep(50);
    }
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
    HttpClient http = HttpClient.newHttpClient();
    String pageSocket = null;
    for (int attempt = 0; attempt < 100 && pageSocket == null; attempt++) {
      JsonNode targets =
          JSON.readTree(
              http.send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                          .build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body());
      for (JsonNode target : targets) {
        if (target.path("type").asText().equals("page")) {
          pageSocket = target.path("webSocketDebuggerUrl").asText();
          break;
        }
      }
      if (pageSocket == null) {
        Thread.sleep(50);
      }
    }
    if (pageSocket == null) {
      process.destroyForcibly();
      throw new AssertionError("Chromium opened no page");
    }
    Listener listener = new Listener();
    WebSocket socket =
        http.newWebSocketBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .buildAsync(URI.create(pageSocket), listener)
            .get(10, TimeUnit.SECONDS);
    Chromium chromium = new Chromium(process, profile, socket);
    listener.owner = chromium;
    chromium.send("Page.enable", Map.of());
    chromium.send("Runtime.enable", Map.of());
    chromium.send("Log.enable", Map.of());
    chromium.viewport(width, height, false);
    return chromium;
  }

  /** Sets the page's size; {@code mobile} also emulates a phone's touch screen and scale. */
  void viewport(int width, int height, boolean mobile) {
    send(
        "Emulation.setDeviceMetricsOverride",
        Map.of(
            "width",
            width,
            "height",
            height,
            "deviceScaleFactor",
            mobile ? 2 : 1,
            "mobile",
            mobile));
  }

  /** Sends a command and waits for its answer's {@code result}. */
  JsonNode send(String method, Map<String, ?> params) {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    ObjectNode message = JSON.createObjectNode();
    message.put("id", id);
    message.put("method", method);
    message.set("params", JSON.valueToTree(params));
    try {
      socket.sendText(JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS);
      JsonNode reply = answer.get(30, TimeUnit.SECONDS);
      if (reply.has("error")) {
        throw new IllegalStateException(method + " failed: " + reply.get("error"));
      }
      return reply.path("result");
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(method + " failed", e);
    } finally {
      pending.remove(id);
    }
  }

  /** Evaluates JavaScript (promises awaited) and returns its value as JSON. */
  JsonNode eval(String expression) {
    JsonNode result =
        send(
            "Runtime.evaluate",
            Map.of("expression", expression, "awaitPromise", true, "returnByValue", true));
    if (result.has("exceptionDetails")) {
      throw new IllegalStateException(
          "script failed: " + expression + "\n" + result.get("exceptionDetails"));
    }
    return result.path("result").path("value");
  }

  String text(String expression) {
    return eval(expression).asText();
  }

  void navigate(String url) {
    send("Page.navigate", Map.of("url", url));
    waitFor("page load", () -> text("document.readyState").equals("complete"));
  }

  /** Waits until {@code condition} (JavaScript) is true; fails after 15 s naming {@code what}. */
  void waitUntil(String what, String condition) {
    waitUntil(what, condition, 15);
  }

  /**
   * Waits until {@code condition} (JavaScript) is true; fails after {@code seconds} naming {@code
   * what}: for a step whose time is the server's (a job stopping), which a loaded machine
   * stretches.
   */
  void waitUntil(String what, String condition, int seconds) {
    waitFor(what, () -> eval("!!(" + condition + ")").asBoolean(), seconds);
  }

  void waitFor(String what, BooleanSupplier condition) {
    waitFor(what, condition, 15);
  }

  void waitFor(String what, BooleanSupplier condition, int seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (IllegalStateException notYet) {
        // the page is between documents
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what + "; page errors: " + pageErrors);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }

  /**
   * A real mouse click at the centre of the first element {@code selector} matches, once it is
   * where a user would click it: visible, its box unchanged over two animation frames (a poll's
   * re-render or a scroll clamp can move it between measuring and pressing) and the element itself
   * at that point ({@code elementFromPoint}), as a browser-automation tool's actionability checks
   * do. Fails naming the selector when it never settles.
   */
  void click(String selector) {
    click(selector, 0);
  }

  /** The same with modifier keys (CDP bits: 1 Alt, 2 Ctrl, 4 Meta, 8 Shift). */
  void click(String selector, int modifiers) {
    JsonNode[] box = new JsonNode[1];
    waitFor(
        selector + " visible, still and on top",
        () -> {
          box[0] = eval(settledBox(selector));
          return box[0] != null && box[0].isObject();
        });
    double x = box[0].get("x").asDouble();
    double y = box[0].get("y").asDouble();
    mouse("mouseMoved", x, y, modifiers);
    mouse("mousePressed", x, y, modifiers);
    mouse("mouseReleased", x, y, modifiers);
  }

  /**
   * JavaScript resolving to the centre of {@code selector}'s element once scrolled into view and
   * unmoved over two animation frames with itself (or a child) topmost there; null otherwise.
   */
  private static String settledBox(String selector) {
    return "(async () => { const e = document.querySelector("
        + JSON.valueToTree(selector)
        + "); if (!e || e.getClientRects().length === 0) return null;"
        + " e.scrollIntoView({block: 'center'});"
        + " const frame = () => new Promise((r) => requestAnimationFrame(() => r()));"
        + " await frame(); const a = e.getBoundingClientRect(); await frame(); await frame();"
        + " const b = e.getBoundingClientRect();"
        + " if (a.left !== b.left || a.top !== b.top || a.width !== b.width"
        + " || a.height !== b.height || b.width === 0) return null;"
        + " const x = b.left + b.width / 2, y = b.top + b.height / 2;"
        + " const hit = document.elementFromPoint(x, y);"
        + " return hit && (hit === e || e.contains(hit)) ? {x, y} : null; })()";
  }

  /**
   * A mouse event: mouseMoved, mousePressed, mouseReleased, or mouseDragged (a move with the left
   * button held).
   */
  void mouse(String type, double x, double y, int modifiers) {
    if (type.equals("mouseDragged")) {
      send(
          "Input.dispatchMouseEvent",
          Map.of("type", "mouseMoved", "x", x, "y", y, "button", "left", "buttons", 1));
      return;
    }
    send(
        "Input.dispatchMouseEvent",
        Map.of(
            "type",
            type,
            "x",
            x,
            "y",
            y,
            "button",
            type.equals("mouseMoved") ? "none" : "left",
            "buttons",
            type.equals("mousePressed") || type.equals("mouseDragged") ? 1 : 0,
            "clickCount",
            type.startsWith("mousePressed") || type.equals("mouseReleased") ? 1 : 0,
            "modifiers",
            modifiers));
  }

  static String visible(String selector) {
    return "(() => { const e = document.querySelector("
        + JSON.valueToTree(selector)
        + "); return !!e && e.getClientRects().length > 0; })()";
  }

  /** Types text at the focus, as an input method would. */
  void type(String text) {
    send("Input.insertText", Map.of("text", text));
  }

  /** A key press: Enter, Escape, Tab, ArrowDown … */
  void press(String key) {
    int code =
        switch (key) {
          case "Enter" -> 13;
          case "Escape" -> 27;
          case "Tab" -> 9;
          case "ArrowDown" -> 40;
          case "ArrowUp" -> 38;
          default -> 0;
        };
    Map<String, Object> down = new java.util.HashMap<>();
    down.put("type", "rawKeyDown");
    down.put("key", key);
    down.put("code", key);
    down.put("windowsVirtualKeyCode", code);
    send("Input.dispatchKeyEvent", down);
    Map<String, Object> up = new java.util.HashMap<>(down);
    up.put("type", "keyUp");
    send("Input.dispatchKeyEvent", up);
  }

  void screenshot(Path file) throws IOException {
    JsonNode shot = send("Page.captureScreenshot", Map.of("format", "png"));
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
  }

  /** Uncaught exceptions, console errors and the browser's own errors (CSP …) so far. */
  List<String> pageErrors() {
    return List.copyOf(pageErrors);
  }

  @Override
  public void close() throws Exception {
    try {
      socket.abort();
    } finally {
      // the browser's own helper processes (renderer, GPU, network) first, then the browser
      List<ProcessHandle> helpers = process.descendants().toList();
      process.destroy();
      helpers.forEach(ProcessHandle::destroy);
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
      for (ProcessHandle helper : helpers) {
        if (helper.isAlive()) {
          helper.destroyForcibly();
        }
      }
      deleteProfile();
    }
  }

  /** Removes the temporary profile, tolerating files a dying helper still moves about. */
  private void deleteProfile() throws IOException {
    for (int attempt = 0; attempt < 3 && Files.exists(profile); attempt++) {
      try (var files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (java.io.UncheckedIOException | IOException raced) {
        // a file went away while walking: walk again
      }
    }
  }

  private void received(String text) {
    try {
      JsonNode message = JSON.readTree(text);
      if (message.has("id")) {
        CompletableFuture<JsonNode> answer = pending.get(message.get("id").asInt());
        if (answer != null) {
          answer.complete(message);
        }
        return;
      }
      String method = message.path("method").asText();
      if (method.equals("Runtime.exceptionThrown")) {
        JsonNode details = message.path("params").path("exceptionDetails");
        pageErrors.add(
            details.path("exception").path("description").asText(details.path("text").asText()));
      } else if (method.equals("Log.entryAdded")
          && message.path("params").path("entry").path("level").asText().equals("error")
          && !message.path("params").path("entry").path("source").asText().equals("network")) {
        // a Content-Security-Policy violation, a script the browser refused … (not an HTTP
        // error answer, which the page handles itself)
        pageErrors.add("browser: " + message.path("params").path("entry").path("text").asText());
      } else if (method.equals("Runtime.consoleAPICalled")
          && message.path("params").path("type").asText().equals("error")) {
        pageErrors.add("console.error: " + message.path("params").path("args"));
      }
    } catch (IOException e) {
      pageErrors.add("unreadable DevTools message: " + e);
    }
  }

  private static final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();
    private volatile Chromium owner;

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String message = partial.toString();
        partial.setLength(0);
        if (owner != null) {
          owner.received(message);
        }
      }
      webSocket.request(1);
      return null;
    }
  }
}
