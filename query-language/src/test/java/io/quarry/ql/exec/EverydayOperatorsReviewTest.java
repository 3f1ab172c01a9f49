package io.quarry.ql.exec;

import java.util.List;
import java.util.Map;

/**
 * Review: session 33's everyday commands (merged before tidy) were never added to
 * BuiltinOperatorsTest's commands, holding or swept lists; here they are, over the same input.
 */
class EverydayOperatorsReviewTest extends OperatorTestCase {

  @Override
  protected List<String> commands() {
    return List.of(
        "addinfo",
        "extract",
        "kv pairdelim=\" \" kvdelim=\"=\" mv_add=t",
        "xmlkv",
        "uniq",
        "table g | uniq",
        "makecontinuous _time span=1h",
        "makecontinuous n span=10");
  }

  @Override
  protected List<String> holdingCommands() {
    return List.of("makecontinuous _time span=1h", "makecontinuous n span=10");
  }

  @Override
  protected List<String> sweptCommands() {
    return commands();
  }

  @Override
  protected List<Map<String, List<Object>>> input() {
    return new BuiltinOperatorsTest().input();
  }
}
