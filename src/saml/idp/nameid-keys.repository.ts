import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SamlNameIdKey } from './entities/saml-nameid-key.entity';
import { NameIdKeyRecord, NameIdKeyStore } from './nameid-key';

/** The one row of saml_nameid_keys (decision 0207). */
@Injectable()
export class NameIdKeysRepository implements NameIdKeyStore {
  constructor(@InjectRepository(SamlNameIdKey) private readonly keys: Repository<SamlNameIdKey>) {}

  find(): Promise<NameIdKeyRecord | null> {
    return this.keys.findOneBy({ id: 1 });
  }

  /** Writes the row unless one exists (another instance won the race): returns the row in force either way. */
  async claim(candidate: Omit<NameIdKeyRecord, 'createdAt'>): Promise<NameIdKeyRecord> {
    await this.keys
      .createQueryBuilder()
      .insert()
      .values({ id: 1, ...candidate })
      .orIgnore()
      .execute();
    const row = await this.find();
    if (!row) throw new Error('saml_nameid_keys: the row just written is not there');
    return row;
  }
}
