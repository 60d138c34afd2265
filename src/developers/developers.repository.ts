import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Tx } from '../database/unit-of-work';
import { Developer } from './entities/developer.entity';

export interface NewDeveloper {
  email: string;
  name: string;
  passwordHash: string;
}

/** developers: accounts of the dashboard. Not a tenant table (a developer belongs to many workspaces). */
@Injectable()
export class DevelopersRepository {
  constructor(@InjectRepository(Developer) private readonly developers: Repository<Developer>) {}

  /** Inserts the account; a taken email (any case) fails with developers_email_key's unique violation. */
  insert(values: NewDeveloper): Promise<Developer> {
    return this.developers.save(this.developers.create(values));
  }

  /** The account of an email (already lower-cased by the DTO), with its password hash. */
  findWithPasswordByEmail(email: string): Promise<Developer | null> {
    return this.developers.createQueryBuilder('d').addSelect('d.passwordHash').where('lower(d.email) = :email', { email }).getOne();
  }

  /** The account of an email (lower-cased by the caller), on `tx` or on the pool (null); without its password hash. */
  findByEmail(tx: Tx | null, email: string): Promise<Developer | null> {
    const developers = tx ? tx.getRepository(Developer) : this.developers;
    return developers.createQueryBuilder('d').where('lower(d.email) = :email', { email }).getOne();
  }

  findById(id: string): Promise<Developer | null> {
    return this.developers.findOneBy({ id });
  }
}
