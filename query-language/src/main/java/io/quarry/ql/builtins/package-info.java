/**
 * Built-in search commands written once as page operators: each class is one command, declared as a
 * plugin declares its commands ({@link io.quarry.plugin.api.command.CommandDefinition}: name, kind,
 * arguments, {@code bind}) and run through the plugin SPI's pull {@link
 * io.quarry.plugin.api.command.Operator} over typed pages, driven by the page engine as plugin
 * commands are ({@link io.quarry.ql.exec.PluginOperators}). The registry adds them as {@code
 * built-in} ({@link io.quarry.ql.command.CommandRegistry#builtIns}), so parsing, {@code | help} and
 * execution are the plugins'. A command whose Splunk syntax does not fit declared {@code
 * name=value} arguments reads its own ({@link io.quarry.ql.command.CustomSyntax}) and writes itself
 * back as SPL ({@link io.quarry.ql.ast.WritesOwnSpl}).
 *
 * <p>Owns: {@code fillnull}, {@code filldown}, {@code convert}, {@code mvexpand}, {@code makemv},
 * {@code mvcombine}, {@code nomv}, {@code regex}, {@code spath}, {@code xyseries}, {@code untable},
 * {@code addtotals}, {@code addcoltotals}, {@code strcat}, {@code rangemap}, {@code replace},
 * {@code accum}, {@code delta}, {@code autoregress}, {@code trendline}, {@code foreach}, {@code
 * fieldformat}, {@code transpose}, {@code appendpipe}, {@code addinfo}, {@code extract}/{@code kv},
 * {@code xmlkv}, {@code uniq}, {@code makecontinuous}, {@code collect} (writing through the
 * server's ingest, {@link io.quarry.ql.plan.WritesEvents}; {@link StashText} its events' text), and
 * the generating {@code gentimes} and {@code makeresults format=… data=…}. {@link Syntax} holds the
 * custom-syntax pieces they share, {@link Fields} wildcard field names, {@link CsvCells} inline
 * CSV, {@link FoundFields} the fields found in a result's text, {@link DelimitedPairs} pairs cut at
 * given delimiters, {@link Axis} {@code makecontinuous}'s buckets. Never write a command here over
 * rows one at a time; {@code appendpipe} runs its bracketed commands through {@link
 * io.quarry.ql.exec.SubPipeline}.
 */
package io.quarry.ql.builtins;
