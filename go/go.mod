module pulsar-routing/go

go 1.19
