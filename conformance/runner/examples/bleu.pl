#!/usr/bin/env perl
# A BLEU in Perl that speaks the bleu-conform protocol (spec CONF-PROTOCOL): an example of a
# target in a second language, run by the test suite through `reference-bleu conform --command`.
# Corpus BLEU of Papineni et al. (2002): clipped n-gram counts pooled over the corpus, N = 4,
# uniform weights, the closest reference length with ties to the shorter, no smoothing (a
# zero precision gives 0), scores on [0, 1]. Written independently of reference_bleu.
#
#   perl bleu.pl                  the correct implementation
#   perl bleu.pl --break noclip   a broken one: counts are not clipped (for the tests)
#   perl bleu.pl --break first    ties of the closest length go to the first reference
#   perl bleu.pl --break garbage  answers a line that is not JSON for a corpus of 2 segments
#   perl bleu.pl --break die      exits (a crash) on a corpus of 3 segments
use strict;
use warnings;
use JSON::PP;

my $break = (@ARGV == 2 && $ARGV[0] eq '--break') ? $ARGV[1] : '';
my $json = JSON::PP->new->utf8->canonical;
$| = 1;

sub ngrams {
    my ($tokens, $n) = @_;
    my %count;
    for my $i (0 .. $#$tokens - $n + 1) {
        $count{join("\x{1}", @$tokens[$i .. $i + $n - 1])}++;
    }
    return \%count;
}

sub closest {
    my ($c, @lengths) = @_;
    my $best;
    for my $len (@lengths) {
        my $d = abs($len - $c);
        next if defined $best && $d > abs($best - $c);
        next if defined $best && $d == abs($best - $c) && ($break eq 'first' || $len >= $best);
        $best = $len;
    }
    return $best;
}

sub bleu {
    my ($hyps, $refs) = @_;
    die "an empty corpus (EC-012)\n" unless @$hyps;
    my (@m, @l);
    my ($c, $r) = (0, 0);
    for my $k (0 .. $#$hyps) {
        my ($hyp, $segment_refs) = ($hyps->[$k], $refs->[$k]);
        die "a segment without references (EC-006)\n" unless @$segment_refs;
        $c += @$hyp;
        $r += closest(scalar(@$hyp), map { scalar(@$_) } @$segment_refs);
        for my $n (1 .. 4) {
            my $counts = ngrams($hyp, $n);
            my @ref_counts = map { ngrams($_, $n) } @$segment_refs;
            for my $g (keys %$counts) {
                my $max = 0;
                for my $rc (@ref_counts) { $max = $rc->{$g} if ($rc->{$g} // 0) > $max; }
                $m[$n] += $break eq 'noclip' ? ($max ? $counts->{$g} : 0) : ($counts->{$g} < $max ? $counts->{$g} : $max);
                $l[$n] += $counts->{$g};
            }
        }
    }
    my $log = 0;
    for my $n (1 .. 4) {
        return 0 unless $m[$n];    # a zero (or undefined) precision gives 0
        $log += 0.25 * log($m[$n] / $l[$n]);
    }
    my $bp = $c >= $r ? 1 : exp(1 - $r / $c);
    return $bp * exp($log);
}

while (my $line = <STDIN>) {
    my $msg = $json->decode($line);
    my $type = $msg->{type};
    last if $type eq 'stop';
    if ($type eq 'hello') {
        print $json->encode({type => 'capabilities', protocol => 'bleu-conform', version => 1,
            name => 'bleu.pl' . ($break ? " --break $break" : ''), input => 'tokens',
            levels => ['corpus'], statistics => JSON::PP::false, scale => 'unit',
            versions => {perl => sprintf('%vd', $^V)}}), "\n";
        next;
    }
    my $segments = scalar @{$msg->{hypotheses}};
    if ($break eq 'garbage' && $segments == 2) { print "BLEU = 42\n"; next; }
    exit 3 if $break eq 'die' && $segments == 3;
    my $score = eval { bleu($msg->{hypotheses}, $msg->{references}) };
    if (defined $score) {
        print $json->encode({type => 'result', seq => $msg->{seq}, status => 'ok', score => $score + 0}), "\n";
    } else {
        chomp(my $error = $@);
        print $json->encode({type => 'result', seq => $msg->{seq}, status => 'error', error => $error}), "\n";
    }
}
