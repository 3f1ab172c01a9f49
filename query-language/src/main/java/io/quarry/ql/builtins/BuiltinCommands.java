package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.CommandDefinition;
import java.util.List;

/** The built-in commands of this package, for {@link io.quarry.ql.command.CommandRegistry}. */
public final class BuiltinCommands {
  private BuiltinCommands() {}

  /**
   * {@code | makeresults format=csv|json data=…}: registered under the registry's own {@code
   * makeresults}, whose parser hands it a use with inline data.
   */
  public static CommandDefinition makeResultsFromData() {
    return new MakeResultsDataCommand();
  }

  /** One definition per command (stateless, shared by every search). */
  public static List<CommandDefinition> all() {
    return List.of(
        new FillNullCommand(),
        new FillDownCommand(),
        new ConvertCommand(),
        new MvExpandCommand(),
        new MakeMvCommand(),
        new MvCombineCommand(),
        new RegexCommand(),
        new SpathCommand(),
        new XySeriesCommand(),
        new UntableCommand(),
        new AddTotalsCommand(),
        new AddColTotalsCommand(),
        // issue 22's streaming and sequential commands
        new StrcatCommand(),
        new RangemapCommand(),
        new NomvCommand(),
        new ReplaceCommand(),
        new AccumCommand(),
        new DeltaCommand(),
        new AutoregressCommand(),
        new TrendlineCommand(),
        new ForeachCommand(),
        new FieldFormatCommand(),
        new TransposeCommand(),
        new GentimesCommand(),
        new AppendPipeCommand(),
        new MapCommand(),
        // session 33's everyday commands
        new AddInfoCommand(),
        new ExtractCommand("extract"),
        new ExtractCommand("kv"),
        new XmlKvCommand(),
        new UniqCommand(),
        new MakeContinuousCommand(),
        // session 34: summary indexing
        new CollectCommand());
  }
}
