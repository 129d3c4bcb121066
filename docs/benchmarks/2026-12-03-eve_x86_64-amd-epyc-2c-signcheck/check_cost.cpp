// Cost of pqsig's ML-DSA import key check alone: PreparedSigningKey::create_checked (check + prepare)
// minus PreparedSigningKey::create (prepare only), and sk_check; thread CPU time, the minimum over
// 15 rounds of N calls (argument, default 2000). Built against a build's libpqsig.a:
//   g++ -std=c++20 -O2 -Iinclude -Isrc check_cost.cpp build-dev/libpqsig.a -o check_cost && ./check_cost 300
#include <time.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#include "pqsig/mldsa.hpp"
using namespace pqsig;
static double tns(){timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
  int reps = argc>1?atoi(argv[1]):2000;
  for(int lvn:{44,65,87}){
    auto lv=static_cast<mldsa::Level>(lvn);
    const auto& p=mldsa::params(lv);
    std::vector<uint8_t> seed(32,7),pk(p.pk_bytes),sk(p.sk_bytes),pk2(p.pk_bytes);
    if(!mldsa::keygen_internal(lv,seed,pk,sk)) return 1;
    double tc=1e18,tp=1e18,tk=1e18;
    for(int r=0;r<15;++r){
      double t0=tns(); for(int i=0;i<reps;++i){auto k=mldsa::PreparedSigningKey::create_checked(lv,sk,pk2); if(!k) return 2;} double t1=tns();
      for(int i=0;i<reps;++i){auto k=mldsa::PreparedSigningKey::create(lv,sk); if(!k) return 3;} double t2=tns();
      for(int i=0;i<reps;++i){if(!mldsa::sk_check(lv,sk,pk2)) return 4;} double t3=tns();
      tc=std::min(tc,t1-t0); tp=std::min(tp,t2-t1); tk=std::min(tk,t3-t2);
    }
    double n=1.0*reps*1000;
    printf("ml-dsa-%d create_checked %.2f us  create %.2f us  diff %.2f us  sk_check %.2f us\n",lvn,tc/n,tp/n,(tc-tp)/n,tk/n);
  }
}
