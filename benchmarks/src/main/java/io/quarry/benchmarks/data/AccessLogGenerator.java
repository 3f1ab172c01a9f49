package io.quarry.benchmarks.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The reference benchmark dataset in Java: Apache combined access-log lines with the shape and
 * cardinalities of {@code shared/bench/gen_access_log.py} (same vocabulary, weights, 24-hour time
 * spread, rare-term placement), deterministic for a given seed and size and independent of the
 * number of threads. The byte stream is not identical to the Python script's (its random number
 * generator is Python's Mersenne Twister); the distributions are.
 *
 * <ul>
 *   <li>5,000 client IPs with Zipf-like popularity (weight {@code 1/(rank+1)^0.8});
 *   <li>21 URI templates (~20 paths) with query strings; JSESSIONID from a pool of 200,000;
 *   <li>status 200 ~80 %, 404 ~6 %, the rest 500/503/400/403/408/301/304/206;
 *   <li>bytes 200..4999 (0 for 304); 42 user agents; referers from the same site (15 % "-");
 *   <li>timestamps non-decreasing over 24 hours from 2026-01-07T00:00:00Z;
 *   <li>{@code RARETERM} as the JSESSIONID of exactly one line per 1,000,000-line block.
 * </ul>
 */
public final class AccessLogGenerator {
  /** Lines per independently seeded chunk (as in the Python generator). */
  static final int CHUNK = 100_000;

  /** One rare line per block of this many lines. */
  public static final int RARE_BLOCK = 1_000_000;

  /** The rare term. */
  public static final String RARE = "RARETERM";

  /** The first timestamp: 2026-01-07T00:00:00Z. */
  public static final long START_EPOCH_SECOND = 1_767_744_000L;

  private static final String[] MONTHS = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };
  private static final String[] PRODUCTS = {
    "FL-DSH-01", "FL-SFW-02", "FL-DLH-02", "RP-LI-02", "RP-SN-01", "RP-DK-02", "K9-BD-01",
    "K9-CW-01", "K9-DL-01", "K9-RT-01", "AV-CB-01", "AV-SB-02", "AV-RT-01", "FI-AG-G08",
    "FI-FW-02", "FI-SW-01", "WC-SH-A01", "WC-SH-A02", "WC-SH-G04", "WC-SH-T02", "PZ-SG-G05",
    "MB-AG-G07", "CU-PG-G06", "DC-SG-G02"
  };
  private static final String[] CATEGORIES = {
    "GIFTS", "SURPRISE", "NULL", "ARCADE", "TEE", "SHOOTER", "STRATEGY", "SIMULATION", "ACCESSORIES"
  };
  private static final String[] ACTIONS = {
    "view", "addtocart", "purchase", "remove", "changequantity"
  };

  /** Referer path templates: {a} action, {i} item, {p} product, {c} category. */
  private static final String[] REFERER_PATHS = {
    "/cart.do?action={a}&itemId=EST-{i}",
    "/product.screen?product_id={p}",
    "/category.screen?category_id={c}",
    "/oldlink?item_id=EST-{i}",
    "/",
    "/cart.do?action=view&itemId=EST-{i}"
  };

  private record Uri(String method, String template, int weight) {}

  private static final Uri[] URIS = {
    new Uri("GET", "/product.screen?product_id={p}&JSESSIONID={s}", 18),
    new Uri("GET", "/category.screen?category_id={c}&JSESSIONID={s}", 14),
    new Uri("GET", "/cart.do?action={a}&itemId=EST-{i}&product_id={p}&JSESSIONID={s}", 12),
    new Uri("POST", "/cart.do?action={a}&itemId=EST-{i}&product_id={p}&JSESSIONID={s}", 8),
    new Uri("GET", "/oldlink?item_id=EST-{i}&JSESSIONID={s}", 6),
    new Uri("GET", "/show.do?productId={p}&JSESSIONID={s}", 5),
    new Uri("POST", "/cart/success.do?JSESSIONID={s}", 4),
    new Uri("POST", "/cart/error.do?msg=CanNotGetCart&JSESSIONID={s}", 2),
    new Uri("GET", "/search.do?items={c}&JSESSIONID={s}", 5),
    new Uri("GET", "/", 4),
    new Uri("GET", "/index.html", 3),
    new Uri("GET", "/static/css/site.css", 4),
    new Uri("GET", "/static/js/app.js", 4),
    new Uri("GET", "/images/logo.png", 3),
    new Uri("GET", "/favicon.ico", 2),
    new Uri("GET", "/account/login?JSESSIONID={s}", 2),
    new Uri("POST", "/account/login?JSESSIONID={s}", 2),
    new Uri("GET", "/hidden/anna_nicole.html", 1),
    new Uri("GET", "/passwords.pdf", 1),
    new Uri("GET", "/api/v1/inventory?product_id={p}", 2),
    new Uri("GET", "/robots.txt", 1)
  };

  private static final String[] STATUS = {
    "200", "404", "500", "503", "400", "403", "408", "301", "304", "206"
  };
  private static final double[] STATUS_WEIGHTS = {800, 60, 15, 10, 15, 10, 8, 20, 50, 12};

  private static final String[] UA_BASE = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.{m} Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:{v}.0) Gecko/20100101 Firefox/{v}.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_{m} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.{m} Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "curl/8.{m}.0",
    "python-requests/2.3{m}.0",
    "Opera/9.01 (Windows NT 5.1; U; en)"
  };
  private static final int[] IP_FIRST_OCTETS = {
    10, 27, 64, 87, 91, 107, 110, 128, 141, 142, 175, 182, 190, 194, 198, 203, 211, 217, 223
  };

  // Vocabulary from a fixed table seed, independent of the stream seed (as in the Python script).
  private static final String[] IPS;
  private static final double[] IP_CUMULATIVE;
  private static final String[] SESSIONS;
  private static final String[] USER_AGENTS;
  private static final double[] UA_CUMULATIVE;
  private static final double[] URI_CUMULATIVE;
  private static final double[] STATUS_CUMULATIVE;
  private static final String[] TIMESTAMPS = new String[86_400];

  static {
    Random tables = new Random(12345);
    LinkedHashSet<String> ips = new LinkedHashSet<>();
    while (ips.size() < 5000) {
      ips.add(
          IP_FIRST_OCTETS[tables.nextInt(IP_FIRST_OCTETS.length)]
              + "."
              + tables.nextInt(256)
              + "."
              + tables.nextInt(256)
              + "."
              + (1 + tables.nextInt(254)));
    }
    List<String> ipList = new ArrayList<>(ips);
    Collections.sort(ipList);
    Collections.shuffle(ipList, tables);
    IPS = ipList.toArray(String[]::new);
    double[] ipWeights = new double[IPS.length];
    for (int rank = 0; rank < ipWeights.length; rank++) {
      ipWeights[rank] = 1.0 / Math.pow(rank + 1, 0.8);
    }
    IP_CUMULATIVE = cumulative(ipWeights);

    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    SESSIONS = new String[200_000];
    StringBuilder session = new StringBuilder(13);
    for (int i = 0; i < SESSIONS.length; i++) {
      session.setLength(0);
      session.append("SD").append(tables.nextInt(10)).append("SL");
      for (int c = 0; c < 9; c++) {
        session.append(alphabet.charAt(tables.nextInt(alphabet.length())));
      }
      SESSIONS[i] = session.toString();
    }

    List<String> agents = new ArrayList<>();
    for (String base : UA_BASE) {
      if (base.contains("{v}") || base.contains("{m}")) {
        for (int k = 0; k < 5; k++) {
          agents.add(
              base.replace("{v}", Integer.toString(118 + k)).replace("{m}", Integer.toString(k)));
        }
      } else {
        agents.add(base);
      }
    }
    USER_AGENTS = agents.toArray(String[]::new);
    double[] uaWeights = new double[USER_AGENTS.length];
    for (int i = 0; i < uaWeights.length; i++) {
      uaWeights[i] = 0.5 + tables.nextDouble() * 9.5;
    }
    UA_CUMULATIVE = cumulative(uaWeights);

    double[] uriWeights = new double[URIS.length];
    for (int i = 0; i < URIS.length; i++) {
      uriWeights[i] = URIS[i].weight();
    }
    URI_CUMULATIVE = cumulative(uriWeights);
    STATUS_CUMULATIVE = cumulative(STATUS_WEIGHTS);

    ZonedDateTime start = ZonedDateTime.of(2026, 1, 7, 0, 0, 0, 0, ZoneOffset.UTC);
    for (int second = 0; second < TIMESTAMPS.length; second++) {
      ZonedDateTime t = start.plusSeconds(second);
      TIMESTAMPS[second] =
          String.format(
              "%02d/%s/%04d:%02d:%02d:%02d +0000",
              t.getDayOfMonth(),
              MONTHS[t.getMonthValue() - 1],
              t.getYear(),
              t.getHour(),
              t.getMinute(),
              t.getSecond());
    }
  }

  private final long lines;
  private final long seed;

  /**
   * @param lines how many lines the dataset has
   * @param seed the stream seed (the Python script's default is 42)
   */
  public AccessLogGenerator(long lines, long seed) {
    if (lines < 0) {
      throw new IllegalArgumentException("lines must be >= 0, got " + lines);
    }
    this.lines = lines;
    this.seed = seed;
  }

  /** How many lines the dataset has. */
  public long lines() {
    return lines;
  }

  /**
   * Writes the dataset to {@code file} (through a temporary file, so an interrupted run never
   * leaves a truncated dataset behind), generating chunks on {@code threads} threads.
   */
  public void write(Path file, int threads) throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".partial");
    int chunks = (int) ((lines + CHUNK - 1) / CHUNK);
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 22)) {
      // at most 2 × threads chunks in memory at once, written in order
      List<Future<byte[]>> window = new ArrayList<>();
      int next = 0;
      for (int written = 0; written < chunks; written++) {
        while (next < chunks && next < written + 2 * Math.max(1, threads)) {
          int chunk = next++;
          window.add(pool.submit(() -> chunk(chunk).getBytes(StandardCharsets.US_ASCII)));
        }
        out.write(window.removeFirst().get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while generating " + file, e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException("generating " + file + " failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
    Files.move(
        temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The lines of one chunk, each ending in a newline. */
  String chunk(int index) {
    long low = (long) index * CHUNK;
    long high = Math.min(low + CHUNK, lines);
    SplittableRandom random = new SplittableRandom((seed << 32) ^ (index * 0x9E3779B1L));
    long rare = rarePosition(low / RARE_BLOCK);
    long rareNext = rarePosition((high - 1) / RARE_BLOCK);
    StringBuilder out = new StringBuilder((int) (high - low) * 280);
    StringBuilder uri = new StringBuilder(96);
    for (long i = low; i < high; i++) {
      int second = (int) ((i * 86_400) / lines);
      Uri template = URIS[pick(URI_CUMULATIVE, random)];
      String session;
      if (i == rare || i == rareNext) {
        session = RARE;
        if (!template.template().contains("{s}")) {
          template = URIS[0]; // the rare term must appear in the line
        }
      } else {
        session = SESSIONS[random.nextInt(SESSIONS.length)];
      }
      uri.setLength(0);
      fill(uri, template.template(), session, random);
      String status = STATUS[pick(STATUS_CUMULATIVE, random)];
      int bytes = status.equals("304") ? 0 : 200 + random.nextInt(4800);
      out.append(IPS[pick(IP_CUMULATIVE, random)])
          .append(" - - [")
          .append(TIMESTAMPS[second])
          .append("] \"")
          .append(template.method())
          .append(' ')
          .append(uri)
          .append(" HTTP 1.1\" ")
          .append(status)
          .append(' ')
          .append(bytes)
          .append(" \"");
      if (random.nextDouble() < 0.15) {
        out.append('-');
      } else {
        out.append("http://buttercup-shopping.com");
        fill(out, REFERER_PATHS[random.nextInt(REFERER_PATHS.length)], null, random);
      }
      out.append("\" \"").append(USER_AGENTS[pick(UA_CUMULATIVE, random)]).append("\"\n");
    }
    return out.toString();
  }

  /** The first {@code count} lines (without line ends), generated in memory. */
  public List<String> firstLines(int count) {
    List<String> out = new ArrayList<>(count);
    for (int chunk = 0; out.size() < count && (long) chunk * CHUNK < lines; chunk++) {
      for (String line : chunk(chunk).split("\n")) {
        if (out.size() == count) {
          break;
        }
        out.add(line);
      }
    }
    return out;
  }

  /** The event time of line {@code line}, in epoch microseconds. */
  public long timeMicros(long line) {
    return (START_EPOCH_SECOND + (line * 86_400) / lines) * 1_000_000L;
  }

  /** The line number of the rare term in one 1M-line block, or -1 when it is past the end. */
  long rarePosition(long block) {
    SplittableRandom random = new SplittableRandom((seed << 20) ^ (block * 7919) ^ 0xABCDEF);
    long position = block * RARE_BLOCK + random.nextInt(RARE_BLOCK);
    return position < lines ? position : -1;
  }

  private static void fill(StringBuilder out, String template, String session, SplittableRandom r) {
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '{' && i + 2 < template.length() && template.charAt(i + 2) == '}') {
        switch (template.charAt(i + 1)) {
          case 'p' -> out.append(PRODUCTS[r.nextInt(PRODUCTS.length)]);
          case 'c' -> out.append(CATEGORIES[r.nextInt(CATEGORIES.length)]);
          case 'a' -> out.append(ACTIONS[r.nextInt(ACTIONS.length)]);
          case 'i' -> out.append(1 + r.nextInt(27));
          case 's' -> out.append(session);
          default -> throw new IllegalStateException("bad template " + template);
        }
        i += 2;
      } else {
        out.append(c);
      }
    }
  }

  private static double[] cumulative(double[] weights) {
    double[] sums = new double[weights.length];
    double total = 0;
    for (int i = 0; i < weights.length; i++) {
      total += weights[i];
      sums[i] = total;
    }
    return sums;
  }

  private static int pick(double[] cumulative, SplittableRandom random) {
    double x = random.nextDouble() * cumulative[cumulative.length - 1];
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (cumulative[mid] <= x) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** {@code java -cp benchmarks.jar …AccessLogGenerator LINES FILE [--seed 42]}. */
  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: AccessLogGenerator LINES FILE [--seed N]");
      System.exit(2);
    }
    long seed = args.length >= 4 && args[2].equals("--seed") ? Long.parseLong(args[3]) : 42;
    try {
      new AccessLogGenerator(Long.parseLong(args[0]), seed)
          .write(Path.of(args[1]), Runtime.getRuntime().availableProcessors());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
