import com.sun.tools.attach.VirtualMachine;

/**
 * Loads async-profiler's agent into a running JVM with one command ({@code start,...} or {@code
 * stop,file=...,collapsed}), so a profile covers a chosen window of a server's life (the agent
 * library is the one the benchmarks jar carries). Run as a single-file program: {@code java
 * AttachProfiler.java PID LIBRARY COMMAND}. Session 46 (ing46).
 */
public class AttachProfiler {
  public static void main(String[] args) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(args[0]);
    try {
      vm.loadAgentPath(args[1], args[2]);
    } finally {
      vm.detach();
    }
  }
}
