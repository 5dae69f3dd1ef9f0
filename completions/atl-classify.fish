function __atl-classify_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-classify_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __atl-classify_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-classify_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __atl-classify_parse_tokens -S
    set -l unparsed_tokens (__atl-classify_tokens -pc)
    switch $unparsed_tokens[1]
    case 'atl-classify'
        __atl-classify_parse_subcommand -r 1 'task=' 'garment=' 'min-confidence=' 'skip-invalid' 'max-pixels=' 'line-buffered' 'progress=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __atl-classify_parse_subcommand -r 1 'version'
        end
    end
end

function __atl-classify_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __atl-classify_parse_subcommand -S -a positional_count
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

function __atl-classify_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __atl-classify_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__atl-classify_tokens -p)
    if test -z "$(__atl-classify_tokens -t)"
        set -l index (count (__atl-classify_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'atl-classify' -f
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_positional "atl-classify" -ge 1' -fa '(set -l exts \'jpg\' \'jpeg\' \'png\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" task' -l 'task' -d 'What to say about each photo.' -rfka 'care hash quality color'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" garment' -l 'garment' -d 'Name this garment in every record printed, so that \'atl-import\' attaches the reading to it.' -rfka ''
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" min-confidence' -l 'min-confidence' -d '--task care: report symbols read with at least this confidence (0 to 1).' -rfka ''
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" skip-invalid' -l 'skip-invalid' -d 'Report photos that cannot be read on stderr and go on.'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" max-pixels' -l 'max-pixels' -d 'Refuse photos of more pixels than this (a bound on memory).' -rfka ''
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" line-buffered' -l 'line-buffered' -d 'Flush stdout after every record (the default when stdout is a terminal).'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" progress' -l 'progress' -d 'Progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events) or none.' -rfka 'auto bar json none'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" version' -l 'version' -d 'Show the version.'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_positional "atl-classify" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'atl-classify' -n '__atl-classify_should_offer_completions_for_flags_or_options "atl-classify help" version' -l 'version' -d 'Show the version.'
