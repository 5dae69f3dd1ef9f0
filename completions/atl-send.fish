function __atl-send_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-send_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __atl-send_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __atl-send_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __atl-send_parse_tokens -S
    set -l unparsed_tokens (__atl-send_tokens -pc)
    switch $unparsed_tokens[1]
    case 'atl-send'
        __atl-send_parse_subcommand -r 1 'code=' 'interface=' 'timeout=' 'to=' 'batch=' 'limit-rate=' 'wait=' 'line-buffered' 'progress=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __atl-send_parse_subcommand -r 1 'version'
        end
    end
end

function __atl-send_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __atl-send_parse_subcommand -S -a positional_count
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

function __atl-send_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __atl-send_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__atl-send_tokens -p)
    if test -z "$(__atl-send_tokens -t)"
        set -l index (count (__atl-send_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'atl-send' -f
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_positional "atl-send" -ge 1' -F
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" code' -l 'code' -d 'The pairing code both sides use, such as 7-crane-orbit (default: make one up and show it).' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" interface' -l 'interface' -d 'The network interface (name or address) for discovery over multicast DNS.' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" timeout' -l 'timeout' -d 'Give up if no byte moves for this many seconds.' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" to' -l 'to' -d 'Connect to this receiver and skip discovery (\'192.168.1.20:9700\', \'[fe80::1%eth0]:9700\').' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" batch' -l 'batch' -d 'Name the batch (letters, digits, _ and -; default: a digest of the files).' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" limit-rate' -l 'limit-rate' -d 'Send at most this many bytes per second (500k, 20M, 1G).' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" wait' -l 'wait' -d 'How long to look for the receiver (or to wait for it to listen, with --to).' -rfka ''
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" line-buffered' -l 'line-buffered' -d 'Flush stdout after every record (the default when stdout is a terminal).'
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" progress' -l 'progress' -d 'Progress on stderr: auto (a bar on a terminal), bar, json (NDJSON events) or none.' -rfka 'auto bar json none'
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" version' -l 'version' -d 'Show the version.'
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_positional "atl-send" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'atl-send' -n '__atl-send_should_offer_completions_for_flags_or_options "atl-send help" version' -l 'version' -d 'Show the version.'
