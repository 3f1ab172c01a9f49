package io.quarry.codecs.vector;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * Whether vector code can run here as SIMD instructions: the incubator module is in the boot layer
 * ({@code --add-modules jdk.incubator.vector}) and HotSpot's optimizing compiler (C2) runs — vector
 * code the JIT does not compile boxes every vector and is far slower than scalar code.
 */
public final class VectorSupport {
  private VectorSupport() {}

  /**
   * Why vector code should not run in this JVM ({@code "no jdk.incubator.vector"}, {@code "C2
   * off"}), or null when it may: the caller then loads its vector class, never before.
   */
  public static String unusable() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return "no jdk.incubator.vector";
    }
    return optimizingCompiler() ? null : "C2 off";
  }

  /**
   * Whether C2 runs: not with {@code -XX:TieredStopAtLevel} under 4 (as {@code quarry}'s short
   * commands), nor {@code -Xint}. A JVM that does not tell is taken at its word.
   */
  private static boolean optimizingCompiler() {
    try {
      HotSpotDiagnosticMXBean vm =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (vm == null) {
        return true;
      }
      boolean compiles = Boolean.parseBoolean(vm.getVMOption("UseCompiler").getValue());
      boolean tiered = Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue());
      int stopAt = Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue());
      return compiles && (!tiered || stopAt >= 4);
    } catch (RuntimeException | LinkageError e) { // no such option, no management module
      return true;
    }
  }
}
