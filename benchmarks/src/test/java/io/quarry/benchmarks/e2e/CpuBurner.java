package io.quarry.benchmarks.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;

/**
 * A process that burns a steady CPU, for the settle's tests to judge as they judge a server: {@code
 * <ms per s>} of its main thread's CPU each second (measured as thread CPU time, so it holds under
 * other load), in slices of 100 ms; each line on its standard input sets a new rate; it exits when
 * its input ends (the test that started it closed it, or ended).
 */
public final class CpuBurner {
  private static volatile long millisPerSecond;

  private CpuBurner() {}

  public static void main(String[] args) throws Exception {
    millisPerSecond = Long.parseLong(args[0]);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  millisPerSecond = Long.parseLong(line.strip());
                }
              } catch (IOException | RuntimeException e) {
                // ends as if the input ended
              }
              System.exit(0);
            },
            "rate-reader");
    reader.setDaemon(true);
    reader.start();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long slice = 100_000_000L;
    long sink = 0;
    while (true) {
      long began = System.nanoTime();
      long cpuStart = threads.getCurrentThreadCpuTime();
      long burn = Math.min(slice, millisPerSecond * 1_000_000L / 10);
      while (threads.getCurrentThreadCpuTime() - cpuStart < burn) {
        for (int i = 0; i < 10_000; i++) {
          sink += i * 31L ^ sink;
        }
      }
      long left = slice - (System.nanoTime() - began);
      if (left > 0) {
        Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
      }
      if (sink == 42) {
        System.out.println(sink); // keeps the loop's work from being optimized away
      }
    }
  }
}
