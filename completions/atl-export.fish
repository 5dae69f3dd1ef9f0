function __atl-export_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-export_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __atl-export_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-export_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __atl-export_parse_tokens -S
    set -l unparsed_tokens (__atl-export_tokens -pc)
    switch $unparsed_tokens[1]
    case 'atl-export'
        __atl-export_parse_subcommand -r 1 'format=' 'o/output=' 'columns=' 'overwrite' 'chart=' 'value=' 'title=' 'width=' 'height=' 'db=' 'line-buffered' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __atl-export_parse_subcommand -r 1 'version'
        end
    end
end

function __atl-export_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __atl-export_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __atl-export_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __atl-export_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__atl-export_tokens -p)
    if test -z "$(__atl-export_tokens -t)"
        set -l index (count (__atl-export_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'atl-export' -f
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_positional "atl-export" -ge 1' -fa '(set -l exts \'ndjson\' \'jsonl\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" format' -l 'format' -d 'Output format: ndjson, json, csv, backup, for stats records svg or png (a chart), html (the lookbook, a web site), or for model records usdz, glb, obj or ply.' -rfka 'ndjson json csv backup svg png html usdz glb obj ply'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" o output' -l 'output' -s 'o' -d 'Write to this file (atomically) instead of standard output; for a mesh format, a file or a directory (default Models/); for html, the site\'s directory.' -rF
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" columns' -l 'columns' -d 'For CSV: the columns, comma-separated (default: every field seen).' -rfka ''
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" overwrite' -l 'overwrite' -d 'For a mesh format: replace an existing file.'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" chart' -l 'chart' -d 'For svg and png: bars, donut, line or ranking (default: line by month, ranking by garment, else bars).' -rfka 'bars donut line ranking'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" value' -l 'value' -d 'For svg and png: the stats field to chart: garments, wears, value, costPerWear, spent, bought, outfits… (default: garments per group, wears over time, cost per wear per garment).' -rfka ''
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" title' -l 'title' -d 'For svg and png: the chart\'s title (default: what it shows).' -rfka ''
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" width' -l 'width' -d 'For svg and png: the width in pixels (default 800).' -rfka ''
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" height' -l 'height' -d 'For svg and png: the height in pixels (default 480).' -rfka ''
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" db' -l 'db' -d 'The catalog file (default: $ATELIER_DB, else $XDG_DATA_HOME/atelier/catalog.sqlite).' -rfa '(set -l exts \'sqlite\' \'db\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" line-buffered' -l 'line-buffered' -d 'Flush stdout after every record (the default when stdout is a terminal).'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" version' -l 'version' -d 'Show the version.'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_positional "atl-export" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'atl-export' -n '__atl-export_should_offer_completions_for_flags_or_options "atl-export help" version' -l 'version' -d 'Show the version.'
